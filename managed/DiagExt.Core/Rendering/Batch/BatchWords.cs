using System.Globalization;
using DiagExt.Core.Reports;

namespace DiagExt.Core.Rendering.Batch;

/// <summary>The cells every batch renderer shows for one dump (text, Markdown and HTML tables alike).</summary>
public static class BatchWords
{
    /// <summary>"1 finding", "no hazard, 1 note" (<see cref="ReportText.Count(int, int, string)"/>), or how the analysis ended.</summary>
    public static string Result(DumpResult dump) => dump.Status switch
    {
        DumpStatus.Analysed when dump.Report is { Incomplete: true } report => $"{ReportText.Count(report)}, incomplete",
        DumpStatus.Analysed => dump.Report is { } report ? ReportText.Count(report) : ReportText.Count(0, 0),
        DumpStatus.Failed => "error",
        DumpStatus.TimedOut => "timed out",
        DumpStatus.Crashed => "crashed",
        _ => "cancelled",
    };

    public static string Runtime(DumpResult dump) => dump.Report?.Target is { } target ? ReportText.RuntimeCell(target.Runtime) : "";

    public static string Threads(DumpResult dump) => dump.Report?.Target?.ThreadCount.ToString(CultureInfo.InvariantCulture) ?? "";

    /// <summary>The cell for one detector of one dump: its count, "-" if skipped, "failed", "" if the dump has no report.</summary>
    public static string DetectorCell(DumpResult dump, string detector) =>
        dump.Report?.Outcomes.FirstOrDefault(o => o.Detector == detector) is not { } outcome ? ""
        : outcome.Status switch
        {
            DetectorStatus.Ran => outcome.Findings.Count.ToString(CultureInfo.InvariantCulture),
            DetectorStatus.Failed => "failed",
            _ => "-",
        };

    /// <summary>Why a detector did not run on this dump (shown once, on its "-"), or null if it ran.</summary>
    public static string? SkipReason(DumpResult dump, string detector) =>
        dump.Report?.Outcomes.FirstOrDefault(o => o.Detector == detector) is { Status: DetectorStatus.Skipped } outcome ? outcome.Reason ?? "" : null;

    /// <summary>Each detector that failed on this dump, as "detector failed: reason".</summary>
    public static IEnumerable<string> Failures(DumpResult dump) =>
        dump.Report?.Failures.Select(o => $"{o.Detector} failed: {o.Reason}") ?? [];

    /// <summary>What detectors that ran said besides findings, as "detector: note".</summary>
    public static IEnumerable<string> Notes(DumpResult dump) =>
        dump.Report?.RanNotes.Select(n => $"{n.Detector}: {n.Note}") ?? [];
}
