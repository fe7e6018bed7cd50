using System.Diagnostics;

using IMemoryReader = DiagExt.Core.Native.IMemoryReader;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Heap;

/// <summary>
/// One pass over the managed heap for every registered interest: each segment in address order, each object
/// once, its type decided per MethodTable (<see cref="MethodTableFilter"/>). A dump's heap is read from the dump
/// file by DiagExt's own walker (<see cref="DumpHeapWalker"/>), a live process's by ClrMD. The pass can run on its
/// own thread while detectors read what it has found so far (<see cref="Stream"/>), on one core while the detectors
/// read and classify on the other.
/// </summary>
public sealed class HeapIndex
{
    private readonly Dictionary<IHeapInterest, HeapFinds> _finds;
    private readonly InterestClock _clock;
    private Task _walk = Task.CompletedTask;
    private long _objectCount;
    private TimeSpan _elapsed;
    private readonly List<HeapDamage> _damage = [];

    private HeapIndex(IEnumerable<IHeapInterest> interests, bool walkable)
    {
        _finds = interests.Distinct().ToDictionary(i => i, _ => new HeapFinds());
        _clock = new InterestClock(_finds.Count);
        Walkable = walkable;
    }

    /// <summary>False when the runtime said the heap could not be walked (a dump taken during a GC).</summary>
    public bool Walkable { get; }

    /// <summary>Objects walked; waits for the walk to end.</summary>
    public long ObjectCount => Ended(() => _objectCount);

    /// <summary>How long the walk itself took; waits for it to end.</summary>
    public TimeSpan Elapsed => Ended(() => _elapsed);

    /// <summary>
    /// What the walk could not see, once it has ended: a segment whose last object (a corrupt array length) runs past
    /// the segment's end, so every object after it there went unseen; a type ClrMD could not read (<see cref="CorruptType"/>).
    /// </summary>
    public IReadOnlyList<HeapDamage> Damage => Ended(() => _damage);

    /// <summary>Walks the heap now, on this thread.</summary>
    internal static HeapIndex Build(ClrHeap heap, IReadOnlyCollection<IHeapInterest> interests, CancellationToken cancellation, IMemoryReader? dumpMemory = null) =>
        Start(heap, interests, background: false, cancellation, dumpMemory);

    /// <summary>
    /// Starts the walk, on a thread of its own when <paramref name="background"/>; no interest, no walk. With
    /// <paramref name="dumpMemory"/> (the dump file's memory, <see cref="Targets.Target.FileMemory"/>) the walk reads the
    /// heap itself (<see cref="DumpHeapWalker"/>); without it (a live process) it is ClrMD's.
    /// </summary>
    internal static HeapIndex Start(ClrHeap heap, IReadOnlyCollection<IHeapInterest> interests, bool background, CancellationToken cancellation, IMemoryReader? dumpMemory = null)
    {
        var index = new HeapIndex(interests, heap.CanWalkHeap);
        if (index._finds.Count == 0)
            return index;
        IMemoryReader? memory = DumpHeapWalker.Applies(dumpMemory, heap) ? dumpMemory : null;
        if (background)
            index._walk = Task.Factory.StartNew(() => index.Walk(heap, memory, cancellation), CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default); // the walk itself sees a cancellation and ends every reader
        else
            index.Walk(heap, memory, cancellation);
        return index;
    }

    /// <summary>Every object the interest wants, in address order; waits for the walk to end.</summary>
    public IReadOnlyList<ClrObject> ObjectsFor(IHeapInterest interest) =>
        _finds.TryGetValue(interest, out HeapFinds? finds) ? Ended(() => finds.All) : [];

    /// <summary>The objects the interest wants in address order as the walk finds them, ending when the walk ends.</summary>
    public IEnumerable<ClrObject> Stream(IHeapInterest interest, CancellationToken cancellation) =>
        _finds.TryGetValue(interest, out HeapFinds? finds) ? finds.Stream(cancellation) : [];

    /// <summary>
    /// What <paramref name="interest"/> cost the walk (its types decided, its objects handed over), once the walk has
    /// stopped, however it stopped; null for an interest this pass did not serve.
    /// </summary>
    public (long Objects, TimeSpan Elapsed)? CostOf(IHeapInterest interest)
    {
        WaitUntilStopped();
        int i = _finds.Keys.ToList().IndexOf(interest);
        if (i < 0)
            return null;
        int objects = _finds[interest].All.Count;
        return (objects, _clock.Of(i, objects));
    }

    /// <summary>Waits until the walk is over, without throwing its exception: whoever reads the results gets that.</summary>
    public void WaitUntilStopped() => Task.WhenAny(_walk).Wait();

    private T Ended<T>(Func<T> result)
    {
        _walk.GetAwaiter().GetResult(); // the walk's own exception, not an AggregateException
        return result();
    }

    private void Walk(ClrHeap heap, IMemoryReader? memory, CancellationToken cancellation)
    {
        var stopwatch = Stopwatch.StartNew();
        HeapFinds[] finds = [.. _finds.Values];
        var filter = new MethodTableFilter([.. _finds.Keys], _damage, _clock);
        try
        {
            long count = 0;
            DumpHeapWalker? walker = memory is null ? null : new DumpHeapWalker(memory, heap, filter);
            void Found(ulong address, ObjectLayout layout)
            {
                count++;
                if (layout.WantedBy.Length == 0)
                    return;
                HandOver(heap.GetObject(address, layout.Type), layout.WantedBy, finds);
            }
            foreach (ClrSegment segment in heap.Segments)
            {
                cancellation.ThrowIfCancellationRequested();
                // What the own walk could not account for (and a live process's whole heap) ClrMD walks.
                ulong rest = walker?.Walk(segment, Found, _damage, cancellation) ?? segment.ObjectRange.Start;
                if (rest < segment.ObjectRange.End)
                    count += WalkWithClrMd(segment, rest, filter, finds, cancellation);
            }
            _objectCount = count;
            _elapsed = stopwatch.Elapsed;
            foreach (HeapFinds f in finds)
                f.End(null);
        }
        catch (Exception e)
        {
            foreach (HeapFinds f in finds)
                f.End(e);
            throw;
        }
    }

    /// <summary>Gives a wanted object to each interest that wants it; now and then timed (<see cref="InterestClock"/>).</summary>
    private void HandOver(ClrObject obj, int[] wantedBy, HeapFinds[] finds)
    {
        if (!_clock.TimeNext())
        {
            foreach (int i in wantedBy)
                finds[i].Add(obj);
            return;
        }
        long since = InterestClock.Now;
        foreach (int i in wantedBy)
        {
            finds[i].Add(obj);
            since = _clock.ChargeSample(i, since);
        }
    }

    /// <summary>ClrMD's careful walk of a segment from <paramref name="from"/> on; returns the objects it saw.</summary>
    private long WalkWithClrMd(ClrSegment segment, ulong from, MethodTableFilter filter, HeapFinds[] finds, CancellationToken cancellation)
    {
        long count = 0;
        ClrObject last = default;
        // Carefully: ClrMD's plain walk ends a segment at the first address it cannot read as an object, and
        // an allocation context a thread has used up exactly (pointer == limit) is such an address: ClrMD
        // skips only non-empty contexts, so every object after it in gen0 went unseen (seen: a hung WCF
        // client's pending request). The careful walk steps to the next valid object instead.
        try
        {
            foreach (ClrObject obj in segment.EnumerateObjects(new MemoryRange(from, segment.ObjectRange.End), carefully: true))
            {
                if ((++count & 0xFFFF) == 0)
                    cancellation.ThrowIfCancellationRequested();
                last = obj;
                if (obj.Type is not { } type)
                    continue;
                int[] wantedBy = filter.WantedBy(type);
                if (wantedBy.Length > 0)
                    HandOver(obj, wantedBy, finds);
            }
        }
        catch (Exception e) when (CorruptType.Is(e) && !cancellation.IsCancellationRequested)
        {
            // ClrMD's enumerator itself can trip on a corrupt MethodTable (comparing types reads their element type:
            // NullReferenceException in ClrDacType.GetElementType, seen on a core with zeroed chunks). The rest of the
            // segment is unreadable data, said as damage; the walk goes on with the next segment.
            _damage.Add(new HeapDamage.WalkStopped(last.IsNull ? from : last.Address, segment.End, CorruptType.Describe(e)));
            return count;
        }
        if (last.Type is { } lastType && last.Address + last.Size > segment.End)
            _damage.Add(new HeapDamage.ObjectPastSegment(last.Address, lastType.Name, last.Size, segment.End));
        return count;
    }
}
