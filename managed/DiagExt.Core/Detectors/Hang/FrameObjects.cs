using System.Buffers.Binary;
using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// The heap objects whose addresses sit in the stack range of a thread's wait: from the innermost frame of the wait
/// to the frame that called it (its live stack, never the dead space below it nor the rest of the stack, where
/// stale copies of other locks lie). SOS's clrstack shows no argument there; dso found the object in that range
/// (Monitor.Enter_Slowpath, Lock.TryEnterSlow, ReaderWriterLockSlim.WaitOnEvent, Task.InternalWait all hold it).
/// Written against frames only, so it can move onto the shared frame-range API of Core/Targets when that lands.
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
            if (word == 0 || (word & (ulong)(size - 1)) != 0 || !seen.Add(word) || heap.GetSegmentByAddress(word) is null)
                continue;
            ClrType? type = SafeType(heap, word);
            if (type is not null && wanted(type))
                found.Add(heap.GetObject(word, type));
        }
        return found;
    }

    private static ClrType? SafeType(ClrHeap heap, ulong address)
    {
        try
        {
            return heap.GetObjectType(address);
        }
        catch (Exception e) when (e is InvalidOperationException or ArgumentException or IOException or OverflowException)
        {
            return null;
        }
    }
}
