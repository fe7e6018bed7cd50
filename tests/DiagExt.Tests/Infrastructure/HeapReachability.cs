using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Tests.Infrastructure;

/// <summary>
/// Ground truth for "is this object live": a plain full mark, written apart from DiagExt's incremental one
/// (Heap/LiveObjects), over the roots the issue names (strong handles, where statics live; the finalizer queue;
/// ClrMD's additional roots; every thread's current exception), no stack.
/// </summary>
public static class HeapReachability
{
    /// <summary>The plain way: every object reachable from the same roots, marked in full (the oracle for the incremental mark).</summary>
    public static HashSet<ulong> FullMark(Target target)
    {
        ClrHeap heap = target.Runtime!.Heap;
        var marked = new HashSet<ulong>();
        var pending = new Stack<ulong>();
        bool Mark(ulong address)
        {
            if (address == 0 || !marked.Add(address))
                return false;
            pending.Push(address);
            return true;
        }
        var dependent = new List<ClrHandle>();
        foreach (ClrHandle handle in target.Runtime.EnumerateHandles())
        {
            if (handle.IsStrong)
                Mark(handle.Object.Address);
            else if (handle.HandleKind == ClrHandleKind.Dependent)
                dependent.Add(handle);
        }
        foreach (ClrRoot root in heap.EnumerateFinalizerRoots().Concat(heap.EnumerateAdditionalRoots()))
            Mark(root.Object.Address);
        foreach (TargetThread thread in target.Threads)
            Mark(thread.CurrentException);
        bool more = true;
        while (more)
        {
            while (pending.TryPop(out ulong address))
                if (heap.GetObject(address) is { IsValid: true } obj)
                    foreach (ulong child in obj.EnumerateReferenceAddresses(carefully: true))
                        Mark(child);
            more = false;
            foreach (ClrHandle handle in dependent.Where(h => marked.Contains(h.Object.Address)))
                more |= Mark(handle.Dependent.Address);
        }
        return marked;
    }
}
