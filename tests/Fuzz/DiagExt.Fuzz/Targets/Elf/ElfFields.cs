using DiagExt.Fuzz.Engine;

namespace DiagExt.Fuzz.Targets.Elf;

/// <summary>
/// The fields of an ELF file DiagExt trusts: the header's program header table (offset, entry size, count) and
/// section header offset (the PN_XNUM escape), each program header, and each note header in PT_NOTE segments.
/// </summary>
internal static class ElfFields
{
    private const int MaxHeaders = 64, MaxNotes = 128;

    public static IReadOnlyList<Field> Find(ReadOnlySpan<byte> d)
    {
        var fields = new FieldList(d.Length);
        if (d.Length < 52 || d[0] != 0x7F || d[1] != (byte)'E')
            return fields.ToList();
        bool is64 = d[4] == 2;
        int ptr = is64 ? 8 : 4;
        fields.Add(4, 1, FieldKind.Tag, 2);
        fields.Add(16, 2, FieldKind.Tag, 4);
        (int phoff, int shoff, int phentsize, int phnum) = is64 ? (32, 40, 54, 56) : (28, 32, 42, 44);
        fields.Add(phoff, ptr, FieldKind.Offset, 0);
        fields.Add(shoff, ptr, FieldKind.Offset, 0);
        fields.Add(phentsize, 2, FieldKind.Length);
        fields.Add(phnum, 2, FieldKind.Count, 0xFFFF);
        long table = is64 ? (long)Math.Min(FieldList.U64(d, phoff), int.MaxValue) : FieldList.U32(d, phoff);
        int entry = FieldList.U16(d, phentsize), count = Math.Min((int)FieldList.U16(d, phnum), MaxHeaders);
        for (int i = 0; i < count && entry > 0; i++)
        {
            long h = table + (long)i * entry;
            fields.Add(h, 4, FieldKind.Tag, 4);
            long offset, size;
            if (is64)
            {
                fields.Add(h + 8, 8, FieldKind.Offset, (ulong)h);
                fields.Add(h + 16, 8, FieldKind.Pointer);
                fields.Add(h + 32, 8, FieldKind.Length);
                fields.Add(h + 40, 8, FieldKind.Length);
                (offset, size) = ((long)Math.Min(FieldList.U64(d, h + 8), int.MaxValue), (long)Math.Min(FieldList.U64(d, h + 32), int.MaxValue));
            }
            else
            {
                fields.Add(h + 4, 4, FieldKind.Offset, (ulong)h);
                fields.Add(h + 8, 4, FieldKind.Pointer);
                fields.Add(h + 16, 4, FieldKind.Length);
                fields.Add(h + 20, 4, FieldKind.Length);
                (offset, size) = (FieldList.U32(d, h + 4), FieldList.U32(d, h + 16));
            }
            if (FieldList.U32(d, h) == 4)
                AddNotes(d, offset, size, fields);
        }
        return fields.ToList();
    }

    private static void AddNotes(ReadOnlySpan<byte> d, long start, long size, FieldList fields)
    {
        long pos = start, end = Math.Min(start + size, d.Length);
        for (int n = 0; n < MaxNotes && pos + 12 <= end; n++)
        {
            uint nameSize = FieldList.U32(d, pos), descSize = FieldList.U32(d, pos + 4);
            fields.Add(pos, 4, FieldKind.Length);
            fields.Add(pos + 4, 4, FieldKind.Length);
            fields.Add(pos + 8, 4, FieldKind.Tag, 1);
            long desc = pos + 12 + ((nameSize + 3L) & ~3L);
            if (FieldList.U32(d, pos + 8) == 1) // NT_PRSTATUS: pid and the user/system timevals
            {
                fields.Add(desc + 32, 4, FieldKind.Tag);
                fields.Add(desc + 48, 8, FieldKind.Length);
                fields.Add(desc + 56, 8, FieldKind.Length);
                fields.Add(desc + 64, 8, FieldKind.Length);
            }
            pos = desc + ((descSize + 3L) & ~3L);
        }
    }
}
