using DiagExt.Core.Errors;
using DiagExt.Core.Native.Symbols;

namespace DiagExt.Core.Native.Stacks;

/// <summary>
/// A native call stack without unwind data or PDBs: the instruction pointer, then every stack word from the stack
/// pointer up that points into a module's code right after a call instruction. Like WinDbg's "dps" filtered to
/// return addresses: the real callers are all there, in order; a stale return address left in an unused slot can
/// appear between them, so callers match frames by name, never by position alone.
/// </summary>
public static class NativeStackScanner
{
    private const int ChunkBytes = 64 * 1024;

    /// <param name="stackEnd">The stack's upper end (TEB StackBase, exclusive); the scan stops there or at the limit.</param>
    public static IReadOnlyList<NativeFrame> Scan(IMemoryReader memory, NativeSymbolizer symbols, ulong instructionPointer, ulong stackPointer, ulong stackEnd, int pointerSize, Limits limits)
    {
        var frames = new List<NativeFrame>();
        if (instructionPointer != 0)
            frames.Add(new NativeFrame(instructionPointer, null, symbols.Resolve(instructionPointer)));
        if (stackPointer == 0 || stackEnd <= stackPointer)
            return frames;

        ulong start = stackPointer & ~(ulong)(pointerSize - 1);
        ulong length = Math.Min(stackEnd - start, (ulong)limits.MaxNativeStackScanBytes);
        byte[] chunk = new byte[ChunkBytes];
        Span<byte> before = stackalloc byte[CallSite.MaxLength];
        for (ulong offset = 0; offset < length && frames.Count < limits.MaxFramesPerThread; offset += ChunkBytes)
        {
            int want = (int)Math.Min((ulong)ChunkBytes, length - offset);
            int read = memory.ReadMemory(start + offset, chunk.AsSpan(0, want));
            for (int i = 0; i + pointerSize <= read && frames.Count < limits.MaxFramesPerThread; i += pointerSize)
            {
                ulong value = pointerSize == 8 ? BinaryReads.U64(chunk, i) : BinaryReads.U32(chunk, i);
                if (value < CallSite.MaxLength || !symbols.IsCode(value))
                    continue;
                if (memory.ReadMemory(value - CallSite.MaxLength, before) != CallSite.MaxLength || !CallSite.EndsWithCall(before))
                    continue;
                frames.Add(new NativeFrame(value, start + offset + (ulong)i, symbols.Resolve(value)));
            }
            if (read < want)
                break; // the rest of the stack was not captured
        }
        return frames;
    }
}
