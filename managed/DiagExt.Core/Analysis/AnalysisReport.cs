using DiagExt.Core.Findings;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Analysis;

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
    string? CpuTimeUnavailable);

/// <summary>The shared heap pass of one analysis: objects walked, time taken, whether detectors ran beside it.</summary>
public sealed record HeapPassSummary(long Objects, TimeSpan Elapsed, bool Background);

/// <summary>
/// Where a command's time went before the analysis: from the process's start to the command (runtime start-up,
/// compilation, argument parsing) and opening the target (reading the dump's headers, loading the DAC).
/// </summary>
public sealed record StartupTimes(TimeSpan ProcessStart, TimeSpan Open);

/// <summary>Everything one analysis of one target produced.</summary>
public sealed record AnalysisReport(TargetSummary Target, IReadOnlyList<DetectorOutcome> Outcomes, long? HeapObjects, TimeSpan Elapsed)
{
    /// <summary>The heap pass, when a detector needed one. Detectors running beside it count their waits for it.</summary>
    public HeapPassSummary? HeapPass { get; init; }

    /// <summary>The command's time before the analysis, when a command measured it (bench/RESULTS.md's phase table).</summary>
    public StartupTimes? Startup { get; init; }

    public IEnumerable<Finding> Findings => Outcomes.SelectMany(o => o.Findings);

    /// <summary>Whether any finding is a hazard or warning; information alone is not "hazards found".</summary>
    public bool HasFindings => Findings.Any(f => f.Severity != FindingSeverity.Information);

    /// <summary>True when no requested detector could run (e.g. dictcycle on a dump without .NET).</summary>
    public bool NothingRan => Outcomes.All(o => o.Status != DetectorStatus.Ran);
}
