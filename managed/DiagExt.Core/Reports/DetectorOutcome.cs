
namespace DiagExt.Core.Reports;

public enum DetectorStatus
{
    Ran,
    Skipped,
    Failed,
}

/// <summary>What one detector did in one analysis: its findings, or why it did not run.</summary>
public sealed record DetectorOutcome(string Detector, DetectorStatus Status, string? Reason, IReadOnlyList<Finding> Findings, TimeSpan Elapsed);
