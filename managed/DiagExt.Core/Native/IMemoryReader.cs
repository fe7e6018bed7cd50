namespace DiagExt.Core.Native;

/// <summary>Target memory as a dump captured it. Reads return how many bytes were there; they never throw.</summary>
internal interface IMemoryReader
{
    int ReadMemory(ulong address, Span<byte> buffer);

    /// <summary>
    /// The end (exclusive) of the captured region holding <paramref name="address"/> (a core's PT_LOAD, one mapping;
    /// a minidump's memory range), or 0 when the reader does not know or the address was not captured.
    /// </summary>
    ulong RegionEnd(ulong address) => 0;
}

/// <summary>Typed reads on top of <see cref="IMemoryReader"/>: false when the bytes were not captured.</summary>
internal static class MemoryReaderExtensions
{
    public static bool TryReadUInt16(this IMemoryReader memory, ulong address, out ushort value)
    {
        Span<byte> b = stackalloc byte[2];
        bool ok = memory.ReadMemory(address, b) == 2;
        value = ok ? BinaryReads.U16(b, 0) : (ushort)0;
        return ok;
    }

    public static bool TryReadUInt32(this IMemoryReader memory, ulong address, out uint value)
    {
        Span<byte> b = stackalloc byte[4];
        bool ok = memory.ReadMemory(address, b) == 4;
        value = ok ? BinaryReads.U32(b, 0) : 0;
        return ok;
    }

    public static bool TryReadUInt64(this IMemoryReader memory, ulong address, out ulong value)
    {
        Span<byte> b = stackalloc byte[8];
        bool ok = memory.ReadMemory(address, b) == 8;
        value = ok ? BinaryReads.U64(b, 0) : 0;
        return ok;
    }

    /// <summary>Reads a pointer of <paramref name="pointerSize"/> bytes (4 or 8).</summary>
    public static bool TryReadPointer(this IMemoryReader memory, ulong address, int pointerSize, out ulong value)
    {
        if (pointerSize == 8)
            return memory.TryReadUInt64(address, out value);
        bool ok = memory.TryReadUInt32(address, out uint v);
        value = v;
        return ok;
    }

    /// <summary>Exactly <paramref name="count"/> bytes, or null when any of them was not captured.</summary>
    public static byte[]? ReadExactly(this IMemoryReader memory, ulong address, int count)
    {
        if (count < 0)
            return null;
        byte[] data = new byte[count];
        return memory.ReadMemory(address, data) == count ? data : null;
    }
}
