using DiagExt.Core.Native.Symbols;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Native.Stacks;

/// <summary>
/// Finds return addresses on a stack without unwind data: every stack word from a stack pointer up that points
/// into a module's code right after a call instruction. Like WinDbg's "dps" filtered to return addresses: the real
/// callers are all there, in order, but a stale return address left in an unused slot can appear between them.
/// </summary>
internal static class NativeStackScanner
{
    private const int ChunkBytes = 64 * 1024;

    /// <summary>Appends the return addresses found in [<paramref name="stackPointer"/>, <paramref name="stackEnd"/>) to <paramref name="frames"/>.</summary>
    public static void Scan(IMemoryReader memory, NativeSymbolizer symbols, ulong stackPointer, ulong stackEnd, int pointerSize, Limits limits, List<NativeFrame> frames)
    {
        if (stackPointer == 0 || stackEnd <= stackPointer)
            return;
        ulong start = stackPointer & ~(ulong)(pointerSize - 1);
        ulong length = Math.Min(stackEnd - start, (ulong)limits.MaxNativeStackScanBytes);
        byte[] chunk = new byte[ChunkBytes];
        for (ulong offset = 0; offset < length && frames.Count < limits.MaxFramesPerThread; offset += ChunkBytes)
        {
            int want = (int)Math.Min((ulong)ChunkBytes, length - offset);
            int read = memory.ReadMemory(start + offset, chunk.AsSpan(0, want));
            for (int i = 0; i + pointerSize <= read && frames.Count < limits.MaxFramesPerThread; i += pointerSize)
            {
                ulong value = pointerSize == 8 ? BinaryReads.U64(chunk, i) : BinaryReads.U32(chunk, i);
                ulong slot = start + offset + (ulong)i;
                // The same return address in the adjacent slot is a saved copy, not another call.
                if (frames.Count > 0 && frames[^1].Address == value && frames[^1].StackSlot == slot - (ulong)pointerSize)
                    continue;
                if (IsReturnAddress(memory, symbols, value))
                    frames.Add(new NativeFrame(value, slot, symbols.Resolve(value)));
            }
            if (read < want)
                break; // the rest of the stack was not captured
        }
    }

    /// <summary>Whether <paramref name="value"/> points into a module's code right after a call instruction.</summary>
    public static bool IsReturnAddress(IMemoryReader memory, NativeSymbolizer symbols, ulong value)
    {
        if (value < CallSite.MaxLength || !symbols.IsCode(value))
            return false;
        Span<byte> before = stackalloc byte[CallSite.MaxLength];
        return memory.ReadMemory(value - CallSite.MaxLength, before) == CallSite.MaxLength && CallSite.EndsWithCall(before);
    }
}
