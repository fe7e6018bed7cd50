using DiagExt.Core.Errors;

namespace DiagExt.Core.Reports;

/// <summary>A finding of a batch with the dump it is in (and the other names of that same dump).</summary>
public sealed record BatchFinding(string Dump, IReadOnlyList<string> AlsoIn, Finding Finding);

/// <summary>Everything one batch produced: a result per dump name, the files it skipped, and totals.</summary>
public sealed record BatchReport(
    IReadOnlyList<string> Inputs,
    IReadOnlyList<DumpResult> Dumps,
    IReadOnlyList<SkippedFile> Skipped,
    int Jobs,
    TimeSpan Elapsed,
    bool Cancelled)
{
    /// <summary>Set on one shard's part of a sharded batch (--shard I/N): what 'diagext merge' needs to put the parts together.</summary>
    public BatchPart? Part { get; init; }

    /// <summary>Dumps of one process taken in turn, compared (<see cref="DumpSeries"/>); empty when no two dumps are of one process.</summary>
    public IReadOnlyList<DumpSeries> Series { get; init; } = [];

    /// <summary>Dumps analysed for themselves (a name with the same content as another is counted once).</summary>
    public IEnumerable<DumpResult> Distinct => Dumps.Where(d => d.SameContentAs is null);

    public int Analysed => Distinct.Count(d => d.Status == DumpStatus.Analysed);

    public int Failed => Distinct.Count(d => d.Status != DumpStatus.Analysed);

    public int Duplicates => Dumps.Count(d => d.SameContentAs is not null);

    /// <summary>Each finding once, under the first name of its dump; then what each series proves, under its last dump (the others as its other names).</summary>
    public IReadOnlyList<BatchFinding> Findings =>
        Distinct.SelectMany(d => d.Findings.Select(f => new BatchFinding(d.Name, OtherNames(d.Name), f)))
            .Concat(Series.SelectMany(s => s.Findings.Select(f => new BatchFinding(s.Dumps.Last(d => d.Analysed).Name, s.Dumps.Where(d => d.Analysed).SkipLast(1).Select(d => d.Name).ToList(), f))))
            .ToList();

    /// <summary>Detector name -> findings, over distinct dumps, in the order detectors first appear.</summary>
    public IReadOnlyList<KeyValuePair<string, int>> FindingsByDetector =>
        Findings.GroupBy(f => f.Finding.Detector)
            .Select(g => new KeyValuePair<string, int>(g.Key, g.Count())).ToList();

    /// <summary>Findings that are hazards or warnings (severity other than "information", as for one dump's exit code).</summary>
    public int Hazards => Findings.Count(f => f.Finding.IsHazard);

    /// <summary>Analysed dumps on which a detector failed: their reports lack that detector's findings.</summary>
    public IEnumerable<DumpResult> Incomplete => Distinct.Where(d => d.Report?.Incomplete == true);

    /// <summary>
    /// 130 if cancelled; 2 if no dump could be analysed (a shard given no dump is not an error); else 1 if any hazard was found; else 3 if
    /// a detector failed on some dump; else 0.
    /// </summary>
    public ExitCode ExitCode =>
        Cancelled ? ExitCode.Cancelled
        : Dumps.Count > 0 && Analysed == 0 ? ExitCode.InputError
        : Hazards > 0 ? ExitCode.HazardsFound
        : Incomplete.Any() ? ExitCode.Incomplete
        : ExitCode.NothingFound;

    /// <summary>Every detector named in any report of the batch, in first-seen order: the columns of a summary table.</summary>
    public IReadOnlyList<string> Detectors =>
        Dumps.SelectMany(d => d.Report?.Outcomes.Select(o => o.Detector) ?? []).Distinct().ToList();

    public IReadOnlyList<string> OtherNames(string name) =>
        Dumps.Where(d => d.SameContentAs == name).Select(d => d.Name).ToList();
}
