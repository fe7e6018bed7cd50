using System.Text;

namespace DiagExt.Core.Native.Elf;

/// <summary>
/// The files a Linux core says the process had mapped (the NT_FILE note the kernel and createdump write: a count, the
/// page size, then each mapping's start, end and file page offset, then the file names in the same order): what
/// finds a shared object a module list left out (ClrMD lists no ld.so). Each file is reported once, from its
/// mapping at file offset 0 to the end of its last mapping.
/// </summary>
internal static class ElfMappedFiles
{
    public const uint FileNote = 0x46494C45; // "FILE"

    /// <summary>Most mappings read from the note: a process has a few thousand.</summary>
    public const int MaxMappings = 65_536;

    public readonly record struct MappedFile(ulong Start, ulong End, string Path);

    public static IReadOnlyList<MappedFile> Read(ElfCoreFile core)
    {
        if (!core.Elf.Is64Bit)
            return [];
        foreach (ElfNote note in core.Elf.EnumerateNotes())
            if (note.Type == FileNote && note.Name == "CORE")
                return Parse(note.Descriptor);
        return [];
    }

    internal static IReadOnlyList<MappedFile> Parse(byte[] note)
    {
        if (note.Length < 16)
            return [];
        ulong count = Math.Min(BinaryReads.U64(note, 0), MaxMappings);
        long names = 16 + (long)count * 24;
        if (names > note.Length)
            return [];
        var files = new Dictionary<string, (ulong Start, ulong End)>(StringComparer.Ordinal);
        var order = new List<string>();
        int at = (int)names;
        for (int i = 0; i < (int)count && at < note.Length; i++)
        {
            int end = Array.IndexOf(note, (byte)0, at);
            if (end < 0)
                break;
            string path = Encoding.UTF8.GetString(note, at, end - at);
            at = end + 1;
            ulong start = BinaryReads.U64(note, 16 + i * 24), stop = BinaryReads.U64(note, 24 + i * 24), page = BinaryReads.U64(note, 32 + i * 24);
            if (stop <= start || path.Length == 0)
                continue;
            if (files.TryGetValue(path, out var known))
                files[path] = (known.Start, Math.Max(known.End, stop));
            else if (page == 0)
            {
                files[path] = (start, stop);
                order.Add(path);
            }
        }
        return [.. order.Select(p => new MappedFile(files[p].Start, files[p].End, p))];
    }
}
