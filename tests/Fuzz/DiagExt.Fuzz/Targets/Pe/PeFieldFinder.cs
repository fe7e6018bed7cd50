using DiagExt.Fuzz.Engine;

namespace DiagExt.Fuzz.Targets.Pe;

/// <summary>
/// The fields of a mapped PE image that DiagExt's PE readers trust: DOS and NT headers, the export and exception
/// data directories, section headers, the export directory and its tables, .pdata entries and their unwind info.
/// <paramref name="offsetOf"/> maps an RVA to where that byte is in the input (-1: not there).
/// </summary>
internal static class PeFieldFinder
{
    private const int MaxSampled = 24;

    public static void Add(ReadOnlySpan<byte> data, Func<uint, long> offsetOf, FieldList fields)
    {
        long dos = offsetOf(0);
        if (dos < 0 || FieldList.U16(data, dos) != 0x5A4D)
            return;
        fields.Add(dos + 0x3C, 4, FieldKind.Offset, 0);
        uint peRva = FieldList.U32(data, dos + 0x3C);
        long pe = offsetOf(peRva);
        if (pe < 0)
            return;
        fields.Add(pe + 6, 2, FieldKind.Count);     // NumberOfSections
        fields.Add(pe + 20, 2, FieldKind.Length);   // SizeOfOptionalHeader
        fields.Add(pe + 4, 2, FieldKind.Tag);       // Machine
        long optional = pe + 24;
        bool plus = FieldList.U16(data, optional) == 0x20B;
        fields.Add(optional, 2, FieldKind.Tag);     // Magic
        fields.Add(optional + 56, 4, FieldKind.Length); // SizeOfImage
        long directories = optional + (plus ? 112 : 96);
        fields.Add(directories - 4, 4, FieldKind.Count); // NumberOfRvaAndSizes
        foreach (int index in new[] { 0, 3 })
        {
            fields.Add(directories + index * 8, 4, FieldKind.Offset, peRva);
            fields.Add(directories + index * 8 + 4, 4, FieldKind.Length);
        }
        long sections = optional + FieldList.U16(data, pe + 20);
        for (int i = 0; i < Math.Min((int)FieldList.U16(data, pe + 6), 16); i++)
        {
            fields.Add(sections + i * 40 + 8, 4, FieldKind.Length);   // VirtualSize
            fields.Add(sections + i * 40 + 12, 4, FieldKind.Offset);  // VirtualAddress
            fields.Add(sections + i * 40 + 36, 4, FieldKind.Tag);     // Characteristics
        }
        AddExports(data, offsetOf, FieldList.U32(data, directories), fields);
        if (plus)
            AddPdata(data, offsetOf, FieldList.U32(data, directories + 24), FieldList.U32(data, directories + 28), fields);
    }

    private static void AddExports(ReadOnlySpan<byte> data, Func<uint, long> offsetOf, uint rva, FieldList fields)
    {
        long dir = rva == 0 ? -1 : offsetOf(rva);
        if (dir < 0)
            return;
        fields.Add(dir + 20, 4, FieldKind.Count, 1); // NumberOfFunctions
        fields.Add(dir + 24, 4, FieldKind.Count, 1); // NumberOfNames
        for (int i = 0; i < 3; i++)
            fields.Add(dir + 28 + i * 4, 4, FieldKind.Offset, rva); // the tables, or the directory itself
        uint names = FieldList.U32(data, dir + 32), ordinals = FieldList.U32(data, dir + 36), functions = FieldList.U32(data, dir + 28);
        uint count = Math.Min(FieldList.U32(data, dir + 24), 4096u);
        for (uint k = 0; k < Math.Min(count, (uint)MaxSampled); k++)
        {
            uint i = count <= MaxSampled ? k : k * (count / MaxSampled);
            long name = offsetOf(names + i * 4), ordinal = offsetOf(ordinals + i * 2);
            if (name >= 0)
                fields.Add(name, 4, FieldKind.Offset, rva);
            if (ordinal >= 0)
                fields.Add(ordinal, 2, FieldKind.Index, i);
            long function = offsetOf(functions + i * 4);
            if (function >= 0)
                fields.Add(function, 4, FieldKind.Offset, rva); // an RVA inside the directory: a forwarder
        }
    }

    private static void AddPdata(ReadOnlySpan<byte> data, Func<uint, long> offsetOf, uint rva, uint size, FieldList fields)
    {
        long table = rva == 0 ? -1 : offsetOf(rva);
        if (table < 0)
            return;
        uint count = Math.Min(size / 12, 1u << 20);
        for (uint k = 0; k < Math.Min(count, (uint)MaxSampled); k++)
        {
            uint i = count <= MaxSampled ? k : k * (count / MaxSampled);
            long entry = table + i * 12L;
            uint begin = FieldList.U32(data, entry);
            fields.Add(entry, 4, FieldKind.Offset, begin);
            fields.Add(entry + 4, 4, FieldKind.Offset, begin);
            fields.Add(entry + 8, 4, FieldKind.Offset, rva + i * 12 | 1); // UnwindData: another entry (indirect)
            uint unwind = FieldList.U32(data, entry + 8) & ~1u;
            long info = offsetOf(unwind);
            if (info < 0)
                continue;
            fields.Add(info, 1, FieldKind.Tag, 0x21 | 0x4 << 3);   // version and flags (chained info)
            fields.Add(info + 1, 1, FieldKind.Length);            // SizeOfProlog
            fields.Add(info + 2, 1, FieldKind.Count);             // CountOfCodes
            fields.Add(info + 3, 1, FieldKind.Tag);               // frame register and offset
            int codes = data.Length > info + 2 ? data[(int)info + 2] : 0;
            for (int c = 0; c < Math.Min(codes, 4); c++)
                fields.Add(info + 4 + c * 2, 2, FieldKind.Tag);   // unwind codes: offset, op, info
            fields.Add(info + 4 + ((codes + 1) & ~1) * 2 + 8, 4, FieldKind.Offset, unwind); // a chained entry's unwind data: itself
        }
    }
}
