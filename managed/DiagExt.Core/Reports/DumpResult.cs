namespace DiagExt.Core.Reports;

/// <summary>
/// What a batch learned about one dump name: the report its analysing process wrote ('diagext analyze DUMP
/// --json', read back by <see cref="ReportJson"/> into the same records), or the one-line reason it has none.
/// </summary>
public sealed record DumpResult
{
    /// <summary>As the report shows it: "dumps/a.core", "dumps/all.zip:crash/a.dmp".</summary>
    public required string Name { get; init; }

    public required DumpStatus Status { get; init; }

    /// <summary>One line saying why there is no report.</summary>
    public string? Error { get; init; }

    /// <summary>The single-dump report: target, findings, detectors. Null unless analysed.</summary>
    public AnalysisReport? Report { get; init; }

    /// <summary>The dump's size once unpacked, when known.</summary>
    public long? SizeBytes { get; init; }

    /// <summary>Wall time of its analysis, including starting the analysing process.</summary>
    public TimeSpan Elapsed { get; init; }

    /// <summary>Peak resident memory of the analysing process, when measured.</summary>
    public long? PeakMemoryBytes { get; init; }

    /// <summary>Set when this name has the same content as an earlier one: analysed once, under that name.</summary>
    public string? SameContentAs { get; init; }

    /// <summary>
    /// SHA-256 of the (unpacked) content, for dumps whose size equals another's in the listing (only those can be
    /// copies, so only those are read twice): how a merge of shards finds copies that landed in different shards.
    /// </summary>
    public string? ContentHash { get; init; }

    public IReadOnlyList<Finding> Findings => Report?.Findings.ToList() ?? [];
}
