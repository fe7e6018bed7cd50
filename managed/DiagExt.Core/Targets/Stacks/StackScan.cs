using System.Buffers.Binary;

namespace DiagExt.Core.Targets.Stacks;

/// <summary>Reads the pointer-sized words of a stack range (bounded by the caller), in address order.</summary>
internal static class StackScan
{
    private const int ChunkBytes = 64 * 1024;

    /// <returns>Every word from <paramref name="range"/>'s low end up, stopping at the first byte the target lacks.</returns>
    public static ulong[] Read(Target target, StackRange range)
    {
        int pointerSize = target.PointerSize;
        ulong low = range.Low & ~(ulong)(pointerSize - 1);
        ulong length = range.High > low ? range.High - low : 0;
        var words = new ulong[length / (ulong)pointerSize];
        byte[] buffer = new byte[ChunkBytes];
        int count = 0;
        for (ulong offset = 0; offset < length; offset += ChunkBytes)
        {
            int want = (int)Math.Min(ChunkBytes, length - offset);
            int read = target.ReadMemory(low + offset, buffer.AsSpan(0, want));
            for (int i = 0; i + pointerSize <= read && count < words.Length; i += pointerSize)
                words[count++] = pointerSize == 8 ? BinaryPrimitives.ReadUInt64LittleEndian(buffer.AsSpan(i)) : BinaryPrimitives.ReadUInt32LittleEndian(buffer.AsSpan(i));
            if (read < want)
                break;
        }
        return count == words.Length ? words : words[..count];
    }
}
