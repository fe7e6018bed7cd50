using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Targets.Stacks;

/// <summary>
/// A hash of the values a thread holds that are not addresses: its registers and its live stack's words, leaving out
/// every word that looks like a pointer. Two dumps of one process in which a thread's fingerprint is the same say that
/// it did not run in between, as far as its own registers and stack can tell: a thread that left a wait and came back
/// to the same frame has changed a counter, a timestamp or a saved register on the way.
/// Pointers are left out because the process changes them under a thread that does not run: a compacting GC rewrites
/// references on a blocked thread's stack, and whether an unchanged stale word points into the GC heap depends on which
/// regions the GC holds at the time (seen: the same word a heap address in one dump and not in the next, on a stuck
/// chain beside a thread that allocates). So on a 64-bit target every aligned value in the user address range counts as
/// a pointer; on 32-bit, where that range is nearly every value, only GC heap addresses are left out.
/// On a Windows target only the managed part counts: the stack from the innermost managed frame up, no registers. The
/// wait code below it (seen under Wine, the only Windows here: two debugger attaches to a process whose chain never
/// moved) rewrites words near the stack pointer and the extended register state at each suspension of the thread.
/// The stack is taken up to the outermost managed frame only: above it lie the thread's start-up frames and, on Linux,
/// its static TLS block at the top of the stack mapping, which the runtime writes for a blocked thread too (seen: a word
/// below the mapping's end changed between two dumps of a stuck chain). FNV-1a, so that the value is the same in every
/// analysing process.
/// </summary>
internal static class ThreadFingerprint
{
    private const ulong Offset = 14695981039346656037UL;
    private const ulong Prime = 1099511628211UL;

    /// <summary>Above the first 4 GB and below the top of x64 user space (Linux and Windows alike).</summary>
    private const ulong LowestPointer = 1UL << 32, HighestPointer = 1UL << 47;

    /// <param name="managedOnly">Leave out the registers and the stack below the innermost managed frame (a Windows target).</param>
    public static string? Of(ThreadStack stack, ClrHeap? heap, int pointerSize, bool managedOnly)
    {
        if (!stack.Words.Any())
            return null; // nothing read: no fingerprint rather than the hash of nothing
        var frames = stack.Frames.Select(f => f.StackPointer).Where(sp => stack.Live.Contains(sp)).ToList();
        ulong top = frames.DefaultIfEmpty(stack.Live.High).Max();
        ulong bottom = managedOnly ? frames.DefaultIfEmpty(stack.Live.High).Min() : 0;
        if (managedOnly && frames.Count == 0)
            return null; // no managed frame to take
        ulong hash = Offset;
        foreach (StackWord word in stack.Words)
        {
            if (word.InRegister ? managedOnly : word.Address >= top || word.Address < bottom)
                continue;
            if (LooksLikePointer(word.Value, heap, pointerSize))
                continue;
            ulong v = word.Value;
            for (int i = 0; i < 8; i++, v >>= 8)
                hash = (hash ^ (v & 0xff)) * Prime;
        }
        return hash.ToString("x16");
    }

    private static bool LooksLikePointer(ulong value, ClrHeap? heap, int pointerSize) =>
        pointerSize == 8
            ? (value & 7) == 0 && value >= LowestPointer && value < HighestPointer
            : value != 0 && heap?.GetSegmentByAddress(value) is not null;
}
