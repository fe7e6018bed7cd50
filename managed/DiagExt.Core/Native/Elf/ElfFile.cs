using System.Text;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Native.Elf;

/// <summary>
/// A little-endian ELF file (32 or 64 bit) read far enough for DiagExt: header, program headers and notes.
/// Used for core dumps (thread times, truncation) and for shared objects (GNU build id).
/// </summary>
internal sealed class ElfFile
{
    public const ushort TypeCore = 4;
    private const int MaxNoteSegmentBytes = 64 * 1024 * 1024;

    private readonly FileBytes _file;
    private readonly Limits _limits;

    private ElfFile(FileBytes file, Limits limits, bool is64Bit, ushort type, ushort machine, IReadOnlyList<ElfProgramHeader> headers)
    {
        _file = file;
        _limits = limits;
        Is64Bit = is64Bit;
        Type = type;
        Machine = machine;
        ProgramHeaders = headers;
    }

    public bool Is64Bit { get; }

    public ushort Type { get; }

    public ushort Machine { get; }

    public IReadOnlyList<ElfProgramHeader> ProgramHeaders { get; }

    public static bool HasElfMagic(ReadOnlySpan<byte> start) =>
        start.Length >= 4 && start[0] == 0x7F && start[1] == (byte)'E' && start[2] == (byte)'L' && start[3] == (byte)'F';

    internal static ElfFile Read(FileBytes file, Limits limits)
    {
        byte[] ident = file.ReadExactly(0, 64) ?? file.ReadExactly(0, 52)
            ?? throw new InvalidDataException($"{file.Path}: file is shorter than an ELF header ({file.Length} bytes).");
        if (!HasElfMagic(ident))
            throw new InvalidDataException($"{file.Path}: not an ELF file.");
        bool is64 = ident[4] switch
        {
            1 => false,
            2 => true,
            _ => throw new InvalidDataException($"{file.Path}: ELF class {ident[4]} is neither 32- nor 64-bit."),
        };
        if (ident[5] != 1)
            throw new InvalidDataException($"{file.Path}: big-endian ELF files are not supported.");
        if (is64 && ident.Length < 64)
            throw new InvalidDataException($"{file.Path}: file is shorter than a 64-bit ELF header.");

        ushort type = BinaryReads.U16(ident, 16), machine = BinaryReads.U16(ident, 18);
        ulong phoff = is64 ? BinaryReads.U64(ident, 32) : BinaryReads.U32(ident, 28);
        ulong shoff = is64 ? BinaryReads.U64(ident, 40) : BinaryReads.U32(ident, 32);
        int phentsize = BinaryReads.U16(ident, is64 ? 54 : 42);
        uint phnum = BinaryReads.U16(ident, is64 ? 56 : 44);
        int minEntry = is64 ? 56 : 32;
        if (phnum == 0xFFFF) // PN_XNUM: the real count is in section header 0's sh_info.
        {
            byte[]? sh0 = file.ReadExactly((long)Math.Min(shoff, long.MaxValue), is64 ? 64 : 40);
            phnum = sh0 is null ? 0 : BinaryReads.U32(sh0, is64 ? 44 : 28);
        }
        if (phnum > limits.MaxElfProgramHeaders)
            throw new InvalidDataException($"{file.Path}: ELF file claims {phnum} program headers; the limit is {limits.MaxElfProgramHeaders}.");
        if (phnum > 0 && phentsize < minEntry)
            throw new InvalidDataException($"{file.Path}: ELF program header size {phentsize} is smaller than {minEntry}.");

        // Both factors come from the file: multiply in 64 bits and let the file's length decide, not an overflow.
        long tableBytes = (long)phnum * phentsize;
        byte[] table = (tableBytes <= int.MaxValue ? file.ReadExactly((long)Math.Min(phoff, long.MaxValue), (int)tableBytes) : null)
            ?? throw new InvalidDataException($"{file.Path}: ELF program headers at 0x{phoff:x} lie beyond the end of the file ({file.Length} bytes): the file is truncated.");
        var headers = new List<ElfProgramHeader>((int)phnum);
        for (int i = 0; i < phnum; i++)
        {
            ReadOnlySpan<byte> h = table.AsSpan(i * phentsize, minEntry);
            headers.Add(is64
                ? new ElfProgramHeader(BinaryReads.U32(h, 0), BinaryReads.U64(h, 8), BinaryReads.U64(h, 16), BinaryReads.U64(h, 32), BinaryReads.U64(h, 40))
                : new ElfProgramHeader(BinaryReads.U32(h, 0), BinaryReads.U32(h, 4), BinaryReads.U32(h, 8), BinaryReads.U32(h, 16), BinaryReads.U32(h, 20)));
        }
        return new ElfFile(file, limits, is64, type, machine, headers);
    }

    /// <summary>The file length every program header's file bytes need: a shorter core is truncated.</summary>
    public ulong RequiredFileLength()
    {
        ulong required = 0;
        foreach (ElfProgramHeader h in ProgramHeaders)
            if (h.FileSize > 0)
                required = Math.Max(required, h.Offset + Math.Min(h.FileSize, ulong.MaxValue - h.Offset));
        return required;
    }

    /// <summary>Every note of every PT_NOTE segment, in file order; a malformed note ends its segment.</summary>
    public IEnumerable<ElfNote> EnumerateNotes()
    {
        int seen = 0;
        foreach (ElfProgramHeader h in ProgramHeaders)
        {
            if (h.Type != ElfProgramHeader.Note || h.FileSize == 0)
                continue;
            // The segment's size is a claim: allocate only what the file holds from its offset (a truncated core, or a lie).
            long available = h.Offset < (ulong)_file.Length ? _file.Length - (long)h.Offset : 0;
            int length = (int)Math.Min(Math.Min(h.FileSize, MaxNoteSegmentBytes), (ulong)available);
            if (length == 0)
                continue;
            byte[] segment = new byte[length];
            length = _file.Read((long)h.Offset, segment);
            if (length < segment.Length)
                Array.Resize(ref segment, length);
            foreach (ElfNote note in ParseNotes(segment))
            {
                if (++seen > _limits.MaxElfNotes)
                    yield break;
                yield return note;
            }
        }
    }

    internal static List<ElfNote> ParseNotes(byte[] segment)
    {
        var notes = new List<ElfNote>();
        long pos = 0;
        while (pos + 12 <= segment.Length)
        {
            uint nameSize = BinaryReads.U32(segment, (int)pos), descSize = BinaryReads.U32(segment, (int)pos + 4), type = BinaryReads.U32(segment, (int)pos + 8);
            long nameStart = pos + 12;
            long descStart = nameStart + Align4(nameSize);
            long next = descStart + Align4(descSize);
            if (next > segment.Length || descStart > segment.Length)
                break;
            string name = Encoding.ASCII.GetString(segment, (int)nameStart, (int)Math.Min(nameSize, 64)).TrimEnd('\0');
            notes.Add(new ElfNote(name, type, segment.AsSpan((int)descStart, (int)descSize).ToArray()));
            pos = next;
        }
        return notes;
    }

    private static long Align4(uint value) => ((long)value + 3) & ~3L;
}
