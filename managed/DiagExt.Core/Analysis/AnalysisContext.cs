using DiagExt.Core.Heap;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Analysis;

/// <summary>
/// What detectors share during one analysis: the target, one heap pass serving every detector's
/// interest, and the cancellation token (Ctrl+C, timeouts). Each detector gets its own view
/// (<see cref="ForDetector"/>) for its notes, as detectors may run at once.
/// </summary>
public sealed class AnalysisContext
{
    private readonly Lazy<HeapIndex> _heap;
    private readonly List<string> _notes = [];
    private readonly List<string> _setAside = [];

    public AnalysisContext(Target target, IReadOnlyCollection<IHeapInterest> interests, CancellationToken cancellation)
        : this(target, StartOnFirstUse(target, interests, cancellation), cancellation)
    {
        // The pass starts now: beside the detectors where several threads may read the target, else before them
        // (so each detector's time is its own work).
        if (interests.Count > 0 && target.Runtime is not null)
            _ = _heap.Value;
    }

    private AnalysisContext(Target target, Lazy<HeapIndex> heap, CancellationToken cancellation)
    {
        Target = target;
        _heap = heap;
        Cancellation = cancellation;
    }

    public Target Target { get; }

    public CancellationToken Cancellation { get; }

    /// <summary>The shared heap pass for every interest of this run, started with the analysis.</summary>
    public HeapIndex Heap => _heap.Value;

    public bool HeapStarted => _heap.IsValueCreated;

    /// <summary>
    /// Records what a detector established without finding a hazard ("loader lock free", "lock memory not captured"),
    /// so the report can say it: no finding must not look like no analysis. It becomes the outcome's Reason ("note:").
    /// </summary>
    public void Note(string text) => _notes.Add(text);

    /// <summary>
    /// Records evidence the detector weighed and did not count ("thread 0x1a2b not listed: a stale reference to ... in
    /// unused stack memory"): not a finding and not a note, but what --verbose shows of why a thread is not named.
    /// </summary>
    public void SetAside(string text) => _setAside.Add(text);

    /// <summary>The evidence set aside since the last call.</summary>
    internal IReadOnlyList<string> TakeSetAside()
    {
        string[] lines = [.. _setAside];
        _setAside.Clear();
        return lines;
    }

    /// <summary>The same target and heap pass for one detector, with notes of its own.</summary>
    internal AnalysisContext ForDetector() => new(Target, _heap, Cancellation);

    /// <summary>The notes recorded since the last call.</summary>
    internal IReadOnlyList<string> TakeNotes()
    {
        string[] notes = [.. _notes];
        _notes.Clear();
        return notes;
    }

    private static Lazy<HeapIndex> StartOnFirstUse(Target target, IReadOnlyCollection<IHeapInterest> interests, CancellationToken cancellation) =>
        new(() => HeapIndex.Start(
            target.Runtime?.Heap ?? throw new InvalidOperationException("no managed runtime: the heap cannot be walked"),
            interests,
            background: target.Workers > 1,
            cancellation,
            target.FileMemory));
}
