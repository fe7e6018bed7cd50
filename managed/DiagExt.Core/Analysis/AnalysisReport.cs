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

/// <summary>Everything one analysis of one target produced.</summary>
public sealed record AnalysisReport(TargetSummary Target, IReadOnlyList<DetectorOutcome> Outcomes, long? HeapObjects, TimeSpan Elapsed)
{
    public IEnumerable<Finding> Findings => Outcomes.SelectMany(o => o.Findings);

    /// <summary>Whether any finding is a hazard or warning; information alone is not "hazards found".</summary>
    public bool HasFindings => Findings.Any(f => f.Severity != FindingSeverity.Information);

    /// <summary>True when no requested detector could run (e.g. dictcycle on a dump without .NET).</summary>
    public bool NothingRan => Outcomes.All(o => o.Status != DetectorStatus.Ran);
}
