using System.Diagnostics;
using DiagExt.Core.Parallelism;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Heap;

/// <summary>
/// The result of one pass over the managed heap: for each registered interest, the objects it wants, in
/// address order. The decision is made once per MethodTable (<see cref="MethodTableFilter"/>). With more than
/// one worker, segments are handed out to threads: ClrMD serialises its DAC calls but reads memory in parallel.
/// </summary>
public sealed class HeapIndex
{
    private readonly Dictionary<IHeapInterest, ClrObject[]> _objects;

    private HeapIndex(Dictionary<IHeapInterest, ClrObject[]> objects, long objectCount, TimeSpan elapsed, bool walkable, int workers)
    {
        _objects = objects;
        ObjectCount = objectCount;
        Elapsed = elapsed;
        Walkable = walkable;
        Workers = workers;
    }

    public long ObjectCount { get; }

    public TimeSpan Elapsed { get; }

    /// <summary>False when the runtime said the heap could not be walked (a dump taken during a GC).</summary>
    public bool Walkable { get; }

    /// <summary>How many threads walked the heap (0 when no interest asked for a walk).</summary>
    public int Workers { get; }

    public IReadOnlyList<ClrObject> ObjectsFor(IHeapInterest interest) =>
        _objects.TryGetValue(interest, out ClrObject[]? list) ? list : [];

    /// <summary>Walks every segment once, on up to <paramref name="workers"/> threads, for every interest at once.</summary>
    public static HeapIndex Build(ClrHeap heap, IReadOnlyCollection<IHeapInterest> interests, int workers, CancellationToken cancellation)
    {
        var stopwatch = Stopwatch.StartNew();
        IHeapInterest[] distinct = interests.Distinct().ToArray();
        if (distinct.Length == 0)
            return new HeapIndex([], 0, stopwatch.Elapsed, heap.CanWalkHeap, 0);

        var filter = new MethodTableFilter(distinct);
        // One walk per segment; segments are in address order, so concatenating their finds keeps that order.
        HeapSegmentWalk[] walks = heap.Segments.Select(s => new HeapSegmentWalk(s, filter)).ToArray();
        workers = Math.Clamp(workers, 1, Math.Max(1, walks.Length));
        WorkerPool.ForEach(walks, workers, walk => walk.Run(cancellation), cancellation);

        var objects = new Dictionary<IHeapInterest, ClrObject[]>();
        for (int i = 0; i < distinct.Length; i++)
            objects[distinct[i]] = [.. walks.SelectMany(w => w.Found(i))];
        return new HeapIndex(objects, walks.Sum(w => w.Objects), stopwatch.Elapsed, heap.CanWalkHeap, workers);
    }
}
