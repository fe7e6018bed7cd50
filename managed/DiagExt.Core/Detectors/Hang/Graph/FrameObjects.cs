using System.Buffers.Binary;
using DiagExt.Core.Targets;
using DiagExt.Core.Targets.Stacks;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// The heap objects whose addresses sit in the stack range of a thread's wait: from the innermost frame of the wait
/// to the frame that called it (its live stack, never the dead space below it nor the rest of the stack, where
/// stale copies of other locks lie). SOS's clrstack shows no argument there; dso found the object in that range
/// (Monitor.Enter_Slowpath, Lock.TryEnterSlow, ReaderWriterLockSlim.WaitOnEvent, Task.InternalWait all hold it).
/// Lock waits still read this raw range (<see cref="InWait"/>): moving them onto the live-stack API wholesale lost the
/// Lock and ReaderWriterLockSlim objects, which sit in frames the API sets aside or in no frame's own part (issue 26's
/// attempt, 8 tests broken). Waits on tasks, threads and ManualResetEventSlims use it (<see cref="HeldInWait"/>).
/// </summary>
internal static class FrameObjects
{
    /// <summary>Most bytes read for one wait's range: the plumbing of any wait is a few frames of a few hundred bytes.</summary>
    public const int MaxRangeBytes = 16 * 1024;

    /// <summary>Slack above the innermost frame's stack pointer when the wait has no caller frame (the stack ended inside it).</summary>
    private const int NoCallerSlack = 4096;

    /// <summary>Distinct objects in the range, innermost first, whose type <paramref name="wanted"/> accepts.</summary>
    public static IReadOnlyList<ClrObject> InWait(Target target, TargetThread thread, WaitFrames.Site site, Func<ClrType, bool> wanted)
    {
        IReadOnlyList<ManagedFrame> frames = thread.Frames;
        ulong low = frames[0].StackPointer;
        ulong high = site.UserFrame >= 0 ? frames[site.UserFrame].StackPointer : frames[site.WaitFrame].StackPointer + NoCallerSlack;
        for (int i = 0; i <= site.WaitFrame; i++)
            if (frames[i].StackPointer != 0 && (low == 0 || frames[i].StackPointer < low))
                low = frames[i].StackPointer;
        if (low == 0 || high <= low)
            return [];
        int length = (int)Math.Min(high - low, MaxRangeBytes);
        byte[] buffer = new byte[length];
        int read = target.ReadMemory(low, buffer);
        ClrHeap heap = target.Runtime!.Heap;
        int size = target.PointerSize;
        var found = new List<ClrObject>();
        var seen = new HashSet<ulong>();
        for (int offset = 0; offset + size <= read; offset += size)
        {
            ulong word = size == 8 ? BinaryPrimitives.ReadUInt64LittleEndian(buffer.AsSpan(offset)) : BinaryPrimitives.ReadUInt32LittleEndian(buffer.AsSpan(offset));
            if (!MayBeObject(heap, word, size) || !seen.Add(word))
                continue;
            ClrType? type = ObjectTypes.Of(heap, word);
            if (type is not null && wanted(type))
                found.Add(heap.GetObject(word, type));
        }
        return found;
    }

    /// <summary>
    /// As <see cref="InWait"/>, through the live-stack API: the words from the thread's stack pointer through the wait's
    /// outermost real frame (<see cref="ThreadStack.WordsThrough"/>), each candidate judged by
    /// <see cref="TargetThread.HoldsThrough"/>; the ones the wait really holds (the this of Task.Wait, Thread.Join,
    /// ManualResetEventSlim.Wait, or a live object) come first, stale copies after them, with a note why.
    /// </summary>
    public static IReadOnlyList<ClrObject> HeldInWait(Target target, TargetThread thread, WaitFrames.Site site, Func<ClrType, bool> wanted, Action<string>? setAside)
    {
        ThreadStack stack = thread.Stack;
        int last = site.UserFrame >= 0 ? site.UserFrame - 1 : site.WaitFrame;
        while (last >= 0 && !stack.IsReal(last))
            last--;
        if (last < 0)
            return [];
        ClrHeap heap = target.Runtime!.Heap;
        int size = target.PointerSize;
        var held = new List<ClrObject>();
        var stale = new List<ClrObject>();
        var seen = new HashSet<ulong>();
        ulong low = stack.Live.Low;
        foreach (StackWord word in stack.WordsThrough(last))
        {
            if (!word.InRegister && word.Address - low >= MaxRangeBytes)
                break;
            ulong value = word.Value;
            if (!MayBeObject(heap, value, size) || !seen.Add(value))
                continue;
            if (ObjectTypes.Of(heap, value) is not { } type || !wanted(type))
                continue;
            StackHold hold = thread.HoldsThrough(value, last);
            if (hold.Counts)
                held.Add(heap.GetObject(value, type));
            else
            {
                stale.Add(heap.GetObject(value, type));
                if (hold.Note is { } why)
                    setAside?.Invoke($"thread 0x{thread.OsThreadId:x} in {thread.Frames[site.WaitFrame].ShortName}: {why}");
            }
        }
        return [.. held, .. stale];
    }

    /// <summary>A stack word that can be an object's address: not null, pointer-aligned, inside a heap segment.</summary>
    public static bool MayBeObject(ClrHeap heap, ulong word, int pointerSize) =>
        word != 0 && (word & (ulong)(pointerSize - 1)) == 0 && heap.GetSegmentByAddress(word) is not null;
}
