using DiagExt.Core.Native.Symbols;
using DiagExt.Core.Native.Windows;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Native.Stacks;

/// <summary>The native stack of each thread of a Windows process, walked once on first use.</summary>
internal sealed class ProcessStacks(WindowsProcess process, NativeSymbolizer symbols, Limits limits)
{
    private readonly Dictionary<uint, IReadOnlyList<NativeFrame>> _frames = new();

    public NativeSymbolizer Symbols => symbols;

    /// <summary>Frames innermost first: the instruction pointer, then return addresses found on the stack.</summary>
    public IReadOnlyList<NativeFrame> For(WindowsThread thread)
    {
        if (_frames.TryGetValue(thread.ThreadId, out IReadOnlyList<NativeFrame>? cached))
            return cached;
        IReadOnlyList<NativeFrame> frames = thread.Registers is { } r
            ? NativeStackWalker.Walk(process.Dump, symbols, r, thread.StackEnd, process.PointerSize, limits)
            : [];
        _frames[thread.ThreadId] = frames;
        return frames;
    }

    /// <summary>Whether a pointer-sized word equal to <paramref name="value"/> lies on the thread's stack between its stack pointer and <paramref name="below"/>.</summary>
    public bool StackHolds(WindowsThread thread, ulong value, ulong below)
    {
        foreach (ulong word in StackWords(thread, below))
            if (word == value)
                return true;
        return false;
    }

    /// <summary>The pointer-sized words from the stack pointer up to <paramref name="below"/> (bounded by the scan limit).</summary>
    public IEnumerable<ulong> StackWords(WindowsThread thread, ulong below)
    {
        if (thread.Registers is not { } r || below <= r.StackPointer)
            yield break;
        int size = process.PointerSize;
        ulong start = r.StackPointer & ~(ulong)(size - 1);
        int length = (int)Math.Min(below - start, (ulong)limits.MaxNativeStackScanBytes);
        byte[] bytes = new byte[length];
        int read = process.Dump.ReadMemory(start, bytes);
        for (int i = 0; i + size <= read; i += size)
            yield return size == 8 ? BinaryReads.U64(bytes, i) : BinaryReads.U32(bytes, i);
    }
}
