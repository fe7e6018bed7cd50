using DiagExt.Core.Heap;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Analysis;

/// <summary>
/// What detectors share during one analysis: the target, one heap pass serving every detector's
/// interest, and the cancellation token (Ctrl+C, timeouts).
/// </summary>
public sealed class AnalysisContext
{
    private readonly IReadOnlyCollection<IHeapInterest> _interests;
    private readonly List<string> _notes = [];
    private HeapIndex? _heap;

    public AnalysisContext(Target target, IReadOnlyCollection<IHeapInterest> interests, CancellationToken cancellation)
    {
        Target = target;
        _interests = interests;
        Cancellation = cancellation;
    }

    public Target Target { get; }

    public CancellationToken Cancellation { get; }

    /// <summary>The shared heap pass, built on first use for every interest of this run.</summary>
    public HeapIndex Heap => _heap ??= HeapIndex.Build(
        Target.Runtime?.Heap ?? throw new InvalidOperationException("no managed runtime: the heap cannot be walked"),
        _interests,
        Target.Workers,
        Cancellation);

    public bool HeapBuilt => _heap is not null;

    /// <summary>
    /// Records what a detector established without finding a hazard ("loader lock free", "lock memory not captured"),
    /// so the report can say it: no finding must not look like no analysis. It becomes the outcome's Reason ("note:").
    /// </summary>
    public void Note(string text) => _notes.Add(text);

    /// <summary>The notes recorded since the last call, for the detector that just ran.</summary>
    internal IReadOnlyList<string> TakeNotes()
    {
        string[] notes = [.. _notes];
        _notes.Clear();
        return notes;
    }
}
