using DiagExt.Core.Errors;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Reports;

/// <summary>What a report is about: a target (dump or process) or a static scan of files.</summary>
public abstract record ReportSubject;

/// <summary>Facts about the analysed target worth printing with any report.</summary>
public sealed record TargetSummary(
    string Name,
    TargetKind Kind,
    string Platform,
    string Architecture,
    int? ProcessId,
    int ThreadCount,
    RuntimeStatus Runtime,
    string? CpuTimeSource,
    string? CpuTimeUnavailable) : ReportSubject
{
    /// <summary>When the dump was written, as the dump itself says (a minidump's header, to the second); null for a core, which carries no time.</summary>
    public DateTime? DumpTime { get; init; }

    /// <summary>When the process started (a minidump's MiscInfo stream), when the dump carries it.</summary>
    public DateTime? ProcessStart { get; init; }

    /// <summary>
    /// Where the runtime (or else the first module) is loaded, "libcoreclr.so@0x7f1e2c400000": with the process id, what
    /// tells two dumps of one process from dumps of two processes that happened to get the same id (address-space
    /// randomisation loads it elsewhere in every process).
    /// </summary>
    public string? ProcessImage { get; init; }
}

/// <summary>
/// Assembly files scanned without a process (ctororder --assembly): what was read, for the report's first line.
/// </summary>
/// <param name="Inputs">The patterns as given, shortened.</param>
public sealed record AssemblyScanSummary(string Inputs, int Files, int Assemblies, int NativeFilesSkipped, int MethodsAnalysed) : ReportSubject;

/// <summary>The shared heap pass of one analysis: objects walked, time taken, whether detectors ran beside it.</summary>
public sealed record HeapPassSummary(long Objects, TimeSpan Elapsed, bool Background)
{
    /// <summary>
    /// False when the runtime said its heap could not be walked (the target was read during a garbage collection):
    /// what such a dump lacks may only be missed, so a series does not read its absence as a chain that cleared.
    /// </summary>
    public bool Walkable { get; init; } = true;
}

/// <summary>
/// Where a command's time went before the analysis: from the process's start to the command (runtime start-up,
/// compilation, argument parsing) and opening the target (reading the dump's headers, loading the DAC).
/// </summary>
public sealed record StartupTimes(TimeSpan ProcessStart, TimeSpan Open);

/// <summary>Everything one analysis produced; the one model every renderer and the batch read.</summary>
public sealed record AnalysisReport(ReportSubject Subject, IReadOnlyList<DetectorOutcome> Outcomes, long? HeapObjects, TimeSpan Elapsed)
{
    /// <summary>The heap pass, when a detector needed one. Detectors running beside it count their waits for it.</summary>
    public HeapPassSummary? HeapPass { get; init; }

    /// <summary>The target, unless this is a static scan.</summary>
    public TargetSummary? Target => Subject as TargetSummary;

    /// <summary>The command's time before the analysis, when a command measured it (bench/RESULTS.md's phase table).</summary>
    public StartupTimes? Startup { get; init; }

    /// <summary>How long the live process was kept from running while it was read; null for a dump.</summary>
    public ProcessPause? Pause { get; init; }

    public IEnumerable<Finding> Findings => Outcomes.SelectMany(o => o.Findings);

    /// <summary>Findings that make "hazards found" (exit code 1): hazards and warnings.</summary>
    public int Hazards => Findings.Count(f => f.IsHazard);

    /// <summary>Information findings: notes, not hazards.</summary>
    public int Notes => Findings.Count(f => !f.IsHazard);

    /// <summary>Whether any finding is a hazard or warning; information alone is not "hazards found".</summary>
    public bool HasFindings => Hazards > 0;

    /// <summary>
    /// True when every requested detector was skipped for what the target lacks (e.g. dictcycle on a dump without .NET):
    /// nothing was analysed. A detector that found it does not apply (wcfhang without WCF) has answered.
    /// </summary>
    public bool AllSkipped => Outcomes.All(o => o.Status == DetectorStatus.Skipped && !o.DoesNotApply);

    /// <summary>Detectors that threw: the report lacks what they would have found.</summary>
    public IEnumerable<DetectorOutcome> Failures => Outcomes.Where(o => o.Status == DetectorStatus.Failed);

    /// <summary>Whether a detector failed, so "no hazard" does not mean the target is healthy.</summary>
    public bool Incomplete => Failures.Any();

    /// <summary>The same report without the failed detectors' stacks, which only --verbose shows.</summary>
    public AnalysisReport WithoutDetails() =>
        Outcomes.Any(o => o.Detail is not null) ? this with { Outcomes = Outcomes.Select(o => o with { Detail = null }).ToList() } : this;

    /// <summary>1 if any hazard was found (complete or not), else 3 if a detector failed, else 0.</summary>
    public ExitCode ExitCode => HasFindings ? ExitCode.HazardsFound : Incomplete ? ExitCode.Incomplete : ExitCode.NothingFound;

    /// <summary>What detectors that ran said besides findings ("loader lock ... is free"), with the detector's name.</summary>
    public IEnumerable<(string Detector, string Note)> RanNotes =>
        Outcomes.Where(o => o.Status == DetectorStatus.Ran && !string.IsNullOrEmpty(o.Reason)).Select(o => (o.Detector, o.Reason!));
}
