using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Targets;

public enum Liveness
{
    /// <summary>Reachable from a root other than a thread's stack.</summary>
    Live,

    /// <summary>Nothing but (possibly) stack words reaches it: garbage the GC has not collected yet, as far as DiagExt can see.</summary>
    Dead,

    /// <summary>The mark stopped at its limit (<see cref="Limits.MaxLiveMarkObjects"/>) before reaching it.</summary>
    Unknown,
}

/// <summary>
/// Which heap objects the process keeps alive other than through a thread's stack: a mark from the strong GC handles
/// (where .NET keeps static fields), the finalizer queue, ClrMD's additional roots (statics and thread statics on .NET
/// 9/10) and every thread's current exception. Stack roots are left out on purpose: a stack word is the evidence being
/// judged (a stack keeps stale copies of dead objects), and the DAC's precise stack-root walk crashes on threads inside
/// .NET 9+ exception dispatch. Lazy and incremental: a question is answered as soon as the mark reaches the object, and the
/// mark goes on from there for the next; "dead" needs the whole reachable heap marked once, within the limit.
/// </summary>
public sealed class LiveObjects
{
    private readonly ClrHeap _heap;
    private readonly Func<IEnumerable<ulong>> _extraRoots;
    private readonly int _limit;
    private readonly object _gate = new();
    private readonly HashSet<ulong> _marked = [];
    private readonly Queue<ulong> _pending = new();
    private readonly List<(ulong Primary, ulong Secondary)> _dependent = [];
    private bool _started;
    private bool _finished;
    private bool _cut;
    private bool _exhausted;

    /// <param name="extraRoots">Roots only the caller knows (the threads' current exceptions), read when the mark starts.</param>
    public LiveObjects(ClrRuntime runtime, Func<IEnumerable<ulong>> extraRoots, int limit)
    {
        _heap = runtime.Heap;
        _extraRoots = extraRoots;
        _limit = limit;
    }

    /// <summary>Objects marked so far (for tests and measurements).</summary>
    public int MarkedCount
    {
        get
        {
            lock (_gate)
                return _marked.Count;
        }
    }

    public Liveness Of(ulong address)
    {
        if (address == 0)
            return Liveness.Dead;
        lock (_gate)
        {
            if (!_started)
                Start();
            if (_marked.Contains(address))
                return Liveness.Live;
            if (_heap.GetSegmentByAddress(address) is not { } segment)
                return Liveness.Dead; // not a heap object at all
            if (segment.Kind == GCSegmentKind.Frozen)
                return Liveness.Live; // string literals and the like: never collected
            if (!_finished && !_exhausted && MarkUntil(address))
                return Liveness.Live;
            _exhausted = _pending.Count == 0;
            return _finished ? Liveness.Dead : Liveness.Unknown;
        }
    }

    private void Start()
    {
        _started = true;
        try
        {
            foreach (ClrHandle handle in _heap.Runtime.EnumerateHandles())
            {
                if (handle.IsStrong)
                    Mark(handle.Object.Address);
                else if (handle.HandleKind == ClrHandleKind.Dependent && handle.Dependent.Address != 0 && _dependent.Count < _limit)
                    _dependent.Add((handle.Object.Address, handle.Dependent.Address));
                if (_cut)
                    return;
            }
            foreach (ClrRoot root in _heap.EnumerateFinalizerRoots())
                Mark(root.Object.Address);
            foreach (ClrRoot root in _heap.EnumerateAdditionalRoots())
                Mark(root.Object.Address);
        }
        catch (Exception e) when (CorruptType.Is(e))
        {
            // A handle table or root ClrMD cannot read: the roots found so far are what the mark has.
        }
        foreach (ulong root in _extraRoots())
            Mark(root);
    }

    /// <summary>Marks on until <paramref name="wanted"/> is reached (true), everything reachable is marked, or the limit is hit.</summary>
    private bool MarkUntil(ulong wanted)
    {
        while (true)
        {
            while (_pending.Count > 0)
            {
                ulong next = _pending.Dequeue();
                foreach (ulong child in References(next))
                    if (Mark(child) && child == wanted)
                        return true;
            }
            // A dependent handle keeps its secondary alive while its primary is: one more round for those now reached.
            bool more = false;
            foreach (var (primary, secondary) in _dependent)
                if (_marked.Contains(primary) && Mark(secondary))
                {
                    more = true;
                    if (secondary == wanted)
                        return true;
                }
            if (!more)
            {
                _finished = !_cut; // with objects left unmarked at the limit, what was not reached may still be live
                return false;
            }
        }
    }

    private bool Mark(ulong address)
    {
        if (address == 0 || _marked.Contains(address))
            return false;
        if (_marked.Count >= _limit)
        {
            _cut = true;
            return false;
        }
        _marked.Add(address);
        _pending.Enqueue(address);
        return true;
    }

    private IEnumerable<ulong> References(ulong address)
    {
        ClrType? type;
        try
        {
            type = ObjectTypes.Of(_heap, address);
        }
        catch (Exception e) when (CorruptType.Is(e))
        {
            return [];
        }
        if (type is null || !type.ContainsPointers)
            return [];
        try
        {
            // Materialised here so that a reference ClrMD cannot read ends this object's list, not the mark.
            return [.. _heap.GetObject(address, type).EnumerateReferenceAddresses(carefully: true, considerDependantHandles: false)];
        }
        catch (Exception e) when (CorruptType.Is(e))
        {
            return [];
        }
    }
}
