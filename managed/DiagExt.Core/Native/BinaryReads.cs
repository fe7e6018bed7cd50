using System.Buffers.Binary;

namespace DiagExt.Core.Native;

/// <summary>
/// Little-endian reads from a byte span that return false instead of throwing when the span is short.
/// Every parser of target bytes goes through these, so a lying length can only make a read fail.
/// </summary>
internal static class BinaryReads
{
    public static bool TryU16(ReadOnlySpan<byte> data, long offset, out ushort value)
    {
        value = 0;
        if (offset < 0 || offset > data.Length - 2)
            return false;
        value = BinaryPrimitives.ReadUInt16LittleEndian(data[(int)offset..]);
        return true;
    }

    public static bool TryU32(ReadOnlySpan<byte> data, long offset, out uint value)
    {
        value = 0;
        if (offset < 0 || offset > data.Length - 4)
            return false;
        value = BinaryPrimitives.ReadUInt32LittleEndian(data[(int)offset..]);
        return true;
    }

    public static bool TryU64(ReadOnlySpan<byte> data, long offset, out ulong value)
    {
        value = 0;
        if (offset < 0 || offset > data.Length - 8)
            return false;
        value = BinaryPrimitives.ReadUInt64LittleEndian(data[(int)offset..]);
        return true;
    }

    public static uint U32(ReadOnlySpan<byte> data, int offset) => BinaryPrimitives.ReadUInt32LittleEndian(data[offset..]);

    public static ulong U64(ReadOnlySpan<byte> data, int offset) => BinaryPrimitives.ReadUInt64LittleEndian(data[offset..]);

    public static ushort U16(ReadOnlySpan<byte> data, int offset) => BinaryPrimitives.ReadUInt16LittleEndian(data[offset..]);
}
