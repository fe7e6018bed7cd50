using System.Text.Json.Serialization;

namespace DiagExt.Core.Reports;

/// <summary>
/// Dumps of one process taken one after the other (procdump -n 3 -s 5, createdump run twice): compared, they say what a
/// single dump cannot, whether a blocked thread moved. Built by a batch from the dumps' own reports.
/// </summary>
public sealed record DumpSeries
{
    /// <summary>"pid 4242 (libcoreclr.so@0x7f1e2c400000)": what the dumps have in common.</summary>
    public required string Process { get; init; }

    /// <summary>The dumps in time order, the damaged ones among them (unanalysed: left out of the comparison).</summary>
    public required IReadOnlyList<SeriesDump> Dumps { get; init; }

    /// <summary>Where the order and the times come from: "the dumps' headers", "the file names", "the files' modification times".</summary>
    public required string TimeSource { get; init; }

    /// <summary>From the first analysed dump to the last, when the times are known and go forward.</summary>
    [JsonConverter(typeof(SecondsJsonConverter)), JsonPropertyName("spanSeconds")]
    public TimeSpan? Span { get; init; }

    /// <summary>What could not be trusted: times that go backwards or tie, dumps left out and why.</summary>
    public IReadOnlyList<string> Problems { get; init; } = [];

    /// <summary>Each thread some dump shows waiting, with its wait in each dump: the threads x dumps table.</summary>
    public IReadOnlyList<SeriesThread> Threads { get; init; } = [];

    /// <summary>What stayed put across the series (hazards, with the time it was stuck for).</summary>
    public IReadOnlyList<Finding> Findings { get; init; } = [];

    /// <summary>What moved (contention, no warning), one line each: which threads moved and how it shows.</summary>
    public IReadOnlyList<string> Moved { get; init; } = [];
}

/// <summary>One dump of a series; <see cref="Time"/> in UTC.</summary>
public sealed record SeriesDump(string Name, DateTime? Time, bool Analysed);

/// <summary>One thread of a series: its wait in each dump (in the series' order).</summary>
public sealed record SeriesThread(uint OsThreadId, int? ManagedThreadId, IReadOnlyList<SeriesCell> Cells);

/// <summary>
/// A thread in one dump: its wait ("Monitor.Enter on AccountLock 0x7f.. held by 0x1a2b"), or null when no finding shows
/// it waiting there; <see cref="Same"/> says whether it is the very same wait as in the dump before (null for the first,
/// or when either is not a wait).
/// </summary>
public sealed record SeriesCell(string? Wait, bool? Same);
