using DiagExt.Core.Native;

namespace DiagExt.Fuzz.Targets.Pe;

/// <summary>Target memory holding one range (an image mapped at its base): reads outside it return nothing.</summary>
internal sealed class RangeMemory(ulong start, ReadOnlyMemory<byte> bytes) : IMemoryReader
{
    public int ReadMemory(ulong address, Span<byte> buffer)
    {
        if (address < start || address - start >= (ulong)bytes.Length)
            return 0;
        int offset = (int)(address - start);
        int count = Math.Min(buffer.Length, bytes.Length - offset);
        bytes.Span.Slice(offset, count).CopyTo(buffer);
        return count;
    }
}
