using DiagExt.Core.Reports;

namespace DiagExt.Core.Analysis;

/// <summary>Sites a user reviewed as safe: a file to leave out (<see cref="Read"/>) or a file to record them in (<see cref="Write"/>).</summary>
public sealed record FileScanBaseline(string? Read, string? Write);

/// <summary>
/// An optional capability of a detector (tested with <c>is</c>, as ClrMD's optional readers): it can also read
/// assembly files and packages without any process, for CI (ctororder --assembly). The command line gives such a
/// detector its --assembly/--baseline options; nothing else names it.
/// </summary>
public interface IFileScan
{
    /// <summary>A paragraph for its help: what a file scan reports and how sites are suppressed.</summary>
    string FileScanExplanation { get; }

    /// <summary>Scans the files the patterns name (paths, folders, globs, .nupkg) and reports as a process analysis would.</summary>
    AnalysisReport ScanFiles(IReadOnlyList<string> patterns, FileScanBaseline baseline, CancellationToken cancellation);
}
