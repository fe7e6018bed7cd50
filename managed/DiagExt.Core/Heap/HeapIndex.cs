using System.Diagnostics;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Heap;

/// <summary>
/// The result of one pass over the managed heap: for each registered interest, the objects it wants.
/// The decision is cached per MethodTable, so the per-object cost is one dictionary lookup.
/// </summary>
public sealed class HeapIndex
{
    private readonly Dictionary<IHeapInterest, List<ClrObject>> _objects;

    private HeapIndex(Dictionary<IHeapInterest, List<ClrObject>> objects, long objectCount, TimeSpan elapsed, bool walkable)
    {
        _objects = objects;
        ObjectCount = objectCount;
        Elapsed = elapsed;
        Walkable = walkable;
    }

    public long ObjectCount { get; }

    public TimeSpan Elapsed { get; }

    /// <summary>False when the runtime said the heap could not be walked (a dump taken during a GC).</summary>
    public bool Walkable { get; }

    public IReadOnlyList<ClrObject> ObjectsFor(IHeapInterest interest) =>
        _objects.TryGetValue(interest, out var list) ? list : [];

    public static HeapIndex Build(ClrHeap heap, IReadOnlyCollection<IHeapInterest> interests, CancellationToken cancellation)
    {
        var stopwatch = Stopwatch.StartNew();
        var objects = interests.Distinct().ToDictionary(i => i, _ => new List<ClrObject>());
        var byMethodTable = new Dictionary<ulong, IHeapInterest[]>();
        long count = 0;
        if (objects.Count > 0)
        {
            foreach (ClrObject obj in heap.EnumerateObjects())
            {
                if ((++count & 0xFFFF) == 0)
                    cancellation.ThrowIfCancellationRequested();
                ClrType? type = obj.Type;
                if (type is null)
                    continue;
                if (!byMethodTable.TryGetValue(type.MethodTable, out IHeapInterest[]? wanted))
                {
                    wanted = objects.Keys.Where(i => i.Wants(type)).ToArray();
                    byMethodTable.Add(type.MethodTable, wanted);
                }
                foreach (IHeapInterest interest in wanted)
                    objects[interest].Add(obj);
            }
        }
        return new HeapIndex(objects, count, stopwatch.Elapsed, heap.CanWalkHeap);
    }
}
