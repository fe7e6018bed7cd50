using DiagExt.Core.Targets;
using DiagExt.Core.Targets.Stacks;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// Whether a thread other than the waiters could signal an object without an owner (a promise task or its
/// TaskCompletionSource, a ManualResetEventSlim): its live stack holds the object, or an object that references it (a
/// closure, a request). Raw words of the live part (SP to base) and registers, one object deep: a stale word only makes
/// hang keep quiet, never report. What is not found is said as such: not "nobody references it" but "no other thread's
/// live stack references it, directly or through one object".
/// </summary>
internal static class SignalReferences
{
    /// <summary>Objects whose references are read per thread: a thread's live stack points at a few hundred.</summary>
    public const int MaxObjectsPerThread = 4096;

    /// <summary>References read per object (a big array is not a closure).</summary>
    public const int MaxReferencesPerObject = 1024;

    public static (TargetThread Thread, string How)? Holder(Target target, IEnumerable<TargetThread> threads, IReadOnlySet<uint> waiters, IReadOnlySet<ulong> signals, CancellationToken cancellation)
    {
        ClrHeap heap = target.Runtime!.Heap;
        int size = target.PointerSize;
        foreach (TargetThread thread in threads)
        {
            cancellation.ThrowIfCancellationRequested();
            if (thread.ClrThread is null || waiters.Contains(thread.OsThreadId))
                continue;
            var seen = new HashSet<ulong>();
            foreach (StackWord word in thread.Stack.Words)
            {
                ulong value = word.Value;
                if (signals.Contains(value))
                    return (thread, $"its stack holds 0x{value:x} {word.Where}");
                if (seen.Count >= MaxObjectsPerThread || !FrameObjects.MayBeObject(heap, value, size) || !seen.Add(value))
                    continue;
                if (ReferencesOne(heap, value, signals) is ulong signal)
                    return (thread, $"its stack holds 0x{value:x} {word.Where}, which references 0x{signal:x}");
            }
        }
        return null;
    }

    private static ulong? ReferencesOne(ClrHeap heap, ulong address, IReadOnlySet<ulong> signals)
    {
        try
        {
            if (ObjectTypes.Of(heap, address) is not { ContainsPointers: true } type)
                return null;
            ClrObject obj = heap.GetObject(address, type);
            foreach (ClrObject reference in obj.EnumerateReferences(carefully: true, considerDependantHandles: false).Take(MaxReferencesPerObject))
                if (signals.Contains(reference.Address))
                    return reference.Address;
        }
        catch (Exception e) when (e is InvalidOperationException or ArgumentException or IOException or OverflowException)
        {
        }
        return null;
    }
}
