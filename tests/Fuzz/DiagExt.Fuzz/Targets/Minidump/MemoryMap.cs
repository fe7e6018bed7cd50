using DiagExt.Fuzz.Engine;

namespace DiagExt.Fuzz.Targets.Minidump;

/// <summary>The field finder's own view of a minidump's memory lists: target address to file offset.</summary>
internal sealed class MemoryMap
{
    private const int MaxDescriptors = 256;

    private readonly List<(ulong Start, ulong Size, long Offset)> _ranges = [];

    public static MemoryMap Read(ReadOnlySpan<byte> d, Dictionary<uint, (uint Size, uint Rva)> streams)
    {
        var map = new MemoryMap();
        if (streams.TryGetValue(5, out var list))
        {
            uint count = Math.Min(FieldList.U32(d, list.Rva), 1u << 16);
            for (uint i = 0; i < count; i++)
            {
                long e = list.Rva + 4 + i * 16L;
                if (e + 16 > d.Length)
                    break;
                map._ranges.Add((FieldList.U64(d, e), FieldList.U32(d, e + 8), FieldList.U32(d, e + 12)));
            }
        }
        if (streams.TryGetValue(9, out var list64))
        {
            ulong count = Math.Min(FieldList.U64(d, list64.Rva), 1UL << 16);
            long offset = (long)Math.Min(FieldList.U64(d, list64.Rva + 8), long.MaxValue / 2);
            for (ulong i = 0; i < count; i++)
            {
                long e = list64.Rva + 16 + (long)i * 16;
                if (e + 16 > d.Length)
                    break;
                ulong size = Math.Min(FieldList.U64(d, e + 8), (ulong)int.MaxValue);
                map._ranges.Add((FieldList.U64(d, e), size, offset));
                offset += (long)size;
            }
        }
        return map;
    }

    public long? OffsetOf(ulong address)
    {
        foreach (var (start, size, offset) in _ranges)
            if (address >= start && address - start < size)
                return offset + (long)(address - start);
        return null;
    }

    public void AddListFields(ReadOnlySpan<byte> d, Dictionary<uint, (uint Size, uint Rva)> streams, FieldList fields)
    {
        if (streams.TryGetValue(5, out var list))
        {
            fields.Add(list.Rva, 4, FieldKind.Count);
            for (uint i = 0; i < Math.Min(FieldList.U32(d, list.Rva), (uint)MaxDescriptors); i++)
            {
                long e = list.Rva + 4 + i * 16L;
                fields.Add(e, 8, FieldKind.Pointer, FieldList.U64(d, list.Rva + 4));
                fields.Add(e + 8, 4, FieldKind.Length);
                fields.Add(e + 12, 4, FieldKind.Offset, (ulong)e);
            }
        }
        if (streams.TryGetValue(9, out var list64))
        {
            fields.Add(list64.Rva, 8, FieldKind.Count);
            fields.Add(list64.Rva + 8, 8, FieldKind.Offset, list64.Rva);
            for (uint i = 0; i < Math.Min(FieldList.U64(d, list64.Rva), (ulong)MaxDescriptors); i++)
            {
                long e = list64.Rva + 16 + i * 16L;
                fields.Add(e, 8, FieldKind.Pointer, FieldList.U64(d, list64.Rva + 16));
                fields.Add(e + 8, 8, FieldKind.Length);
            }
        }
    }
}
