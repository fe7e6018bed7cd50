using DiagExt.Core.Native;

namespace DiagExt.Tests.Native;

/// <summary>Target memory for parser unit tests: one captured range starting at <paramref name="start"/>.</summary>
internal sealed class ByteMemory(ulong start, byte[] bytes) : IMemoryReader
{
    public int ReadMemory(ulong address, Span<byte> buffer)
    {
        if (address < start || address - start >= (ulong)bytes.Length)
            return 0;
        int offset = (int)(address - start);
        int count = Math.Min(buffer.Length, bytes.Length - offset);
        bytes.AsSpan(offset, count).CopyTo(buffer);
        return count;
    }
}
