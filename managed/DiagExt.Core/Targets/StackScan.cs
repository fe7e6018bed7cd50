using System.Buffers.Binary;

namespace DiagExt.Core.Targets;

/// <summary>
/// Collects every pointer-sized value in a thread's register context and on its stack, from the stack
/// pointer up past its outermost managed frame (bounded), so detectors can ask "does this thread hold X".
/// </summary>
internal static class StackScan
{
    private const int MaxContextBytes = 4096;
    private const ulong MaxStackBytes = 1024 * 1024;
    private const ulong SlackAboveLastFrame = 4096;
    private const int ChunkBytes = 64 * 1024;

    public static void Collect(Target target, uint osThreadId, IReadOnlyList<ManagedFrame> frames, HashSet<ulong> words)
    {
        int pointerSize = target.PointerSize;
        ulong low = frames.Count > 0 ? frames.Min(f => f.StackPointer) : 0;
        byte[] context = new byte[MaxContextBytes];
        try
        {
            // Registers: any aligned word of the CONTEXT record; architecture-neutral and cheap.
            if (target.DataTarget.DataReader.GetThreadContext(osThreadId, 0xFFFFFFFF, context))
                AddWords(context, pointerSize, words);
        }
        catch (Exception e) when (e is not OutOfMemoryException)
        {
            // No context for this thread in the dump: the stack alone must do.
        }
        if (frames.Count == 0 || low == 0)
            return;
        ulong high = frames.Max(f => f.StackPointer) + SlackAboveLastFrame;
        if (high <= low)
            return;
        ulong length = Math.Min(high - low, MaxStackBytes);
        byte[] buffer = new byte[ChunkBytes];
        for (ulong offset = 0; offset < length; offset += ChunkBytes)
        {
            int want = (int)Math.Min((ulong)ChunkBytes, length - offset);
            int read = target.ReadMemory(low + offset, buffer.AsSpan(0, want));
            AddWords(buffer.AsSpan(0, read), pointerSize, words);
            if (read < want)
                break;
        }
    }

    private static void AddWords(ReadOnlySpan<byte> bytes, int pointerSize, HashSet<ulong> words)
    {
        for (int i = 0; i + pointerSize <= bytes.Length; i += pointerSize)
        {
            ulong value = pointerSize == 8 ? BinaryPrimitives.ReadUInt64LittleEndian(bytes[i..]) : BinaryPrimitives.ReadUInt32LittleEndian(bytes[i..]);
            if (value != 0)
                words.Add(value);
        }
    }
}
