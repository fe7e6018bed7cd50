using System.Text;

namespace DiagExt.Core.Native.Pe;

/// <summary>
/// The headers of a PE image mapped in target memory (a module of a Windows dump): machine, bitness, the export
/// and exception (.pdata) directories and the sections. Read from the image itself, so no file and no PDB is needed.
/// </summary>
internal sealed record PeHeaders(ushort Machine, bool IsPe32Plus, uint SizeOfImage, PeDataDirectory Export, PeDataDirectory Exception, IReadOnlyList<PeSection> Sections)
{
    public const ushort MachineI386 = 0x014C;
    public const ushort MachineAmd64 = 0x8664;

    private const int HeaderPage = 0x1000;
    private const int MaxSections = 96; // the PE format's own limit
    private const int SectionHeaderSize = 40;

    /// <summary>Whether <paramref name="rva"/> lies in a section that holds code.</summary>
    public bool IsCode(uint rva) => Sections.Any(s => s.IsExecutable && s.Contains(rva));

    /// <summary>The headers at <paramref name="imageBase"/>, or null when they were not captured or are not a PE image.</summary>
    public static PeHeaders? Read(IMemoryReader memory, ulong imageBase)
    {
        byte[] page = new byte[HeaderPage];
        int read = memory.ReadMemory(imageBase, page);
        return Parse(page.AsSpan(0, read));
    }

    /// <summary>Parses the first page of an image; every offset is checked against the bytes there.</summary>
    public static PeHeaders? Parse(ReadOnlySpan<byte> page)
    {
        if (!BinaryReads.TryU16(page, 0, out ushort mz) || mz != 0x5A4D || !BinaryReads.TryU32(page, 0x3C, out uint peOffset))
            return null;
        if (!BinaryReads.TryU32(page, peOffset, out uint signature) || signature != 0x00004550)
            return null;
        long fileHeader = peOffset + 4L;
        if (!BinaryReads.TryU16(page, fileHeader, out ushort machine)
            || !BinaryReads.TryU16(page, fileHeader + 2, out ushort sectionCount)
            || !BinaryReads.TryU16(page, fileHeader + 16, out ushort optionalSize))
            return null;
        long optional = fileHeader + 20;
        if (!BinaryReads.TryU16(page, optional, out ushort magic) || magic is not (0x10B or 0x20B))
            return null;
        bool plus = magic == 0x20B;
        if (!BinaryReads.TryU32(page, optional + 56, out uint sizeOfImage))
            return null;
        long directories = optional + (plus ? 112 : 96);
        uint directoryCount = BinaryReads.TryU32(page, directories - 4, out uint n) ? n : 0;
        return new PeHeaders(
            machine,
            plus,
            sizeOfImage,
            Directory(page, directories, directoryCount, 0),
            Directory(page, directories, directoryCount, 3),
            ReadSections(page, optional + optionalSize, Math.Min((int)sectionCount, MaxSections)));
    }

    private static PeDataDirectory Directory(ReadOnlySpan<byte> page, long directories, uint count, int index) =>
        index < count && BinaryReads.TryU32(page, directories + index * 8, out uint rva) && BinaryReads.TryU32(page, directories + index * 8 + 4, out uint size)
            ? new PeDataDirectory(rva, size) : default;

    private static List<PeSection> ReadSections(ReadOnlySpan<byte> page, long start, int count)
    {
        var sections = new List<PeSection>(count);
        for (int i = 0; i < count; i++)
        {
            long at = start + (long)i * SectionHeaderSize;
            if (at < 0 || at + SectionHeaderSize > page.Length)
                break;
            ReadOnlySpan<byte> header = page.Slice((int)at, SectionHeaderSize);
            string name = Encoding.ASCII.GetString(header[..8]).TrimEnd('\0');
            sections.Add(new PeSection(name, BinaryReads.U32(header, 12), BinaryReads.U32(header, 8), BinaryReads.U32(header, 36)));
        }
        return sections;
    }
}
