using DiagExt.Core.Reports;

namespace DiagExt.Core.Analysis;

/// <summary>One analysed dump of a series, with the time it was taken (UTC) when known.</summary>
public sealed record SeriesSnapshot(string Dump, DateTime? Time, AnalysisReport Report);

/// <summary>What a detector concludes from dumps of one process taken in turn.</summary>
public sealed record SeriesVerdicts(IReadOnlyList<Finding> Findings, IReadOnlyList<string> Moved, IReadOnlyList<SeriesThread> Threads)
{
    public static SeriesVerdicts None { get; } = new([], [], []);
}

/// <summary>
/// A detector whose single-dump findings time can settle (a chain that may yet move): it compares its own findings of
/// each dump of a series, from their reports alone, since a batch analyses every dump in its own process.
/// </summary>
public interface ISeriesJudge
{
    /// <summary><paramref name="snapshots"/> in time order, at least two.</summary>
    SeriesVerdicts Judge(IReadOnlyList<SeriesSnapshot> snapshots);
}
