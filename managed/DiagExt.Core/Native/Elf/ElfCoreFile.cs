using DiagExt.Core.Targets;

namespace DiagExt.Core.Native.Elf;

/// <summary>
/// An ELF core dump as DiagExt reads it itself: per-thread status notes, the length the file must have, and target
/// memory straight from the file (each PT_LOAD maps a virtual range to file bytes; the heap walk reads large blocks
/// this way, from several threads at once, which ClrMD's one-stream reader cannot).
/// </summary>
internal sealed class ElfCoreFile : IMemoryReader, IDisposable
{
    private readonly FileBytes _file;
    private readonly Load[] _loads;

    private ElfCoreFile(FileBytes file, ElfFile elf)
    {
        _file = file;
        Elf = elf;
        // Only the bytes the file holds are memory here (FileSize may be less than MemorySize); sorted for a binary search.
        _loads = [.. elf.ProgramHeaders.Where(h => h.Type == ElfProgramHeader.Load && h.FileSize > 0 && h.VirtualAddress + h.FileSize > h.VirtualAddress)
            .OrderBy(h => h.VirtualAddress).Select(h => new Load(h.VirtualAddress, h.FileSize, h.Offset))];
    }

    public ElfFile Elf { get; }

    public long FileLength => _file.Length;

    public static ElfCoreFile Open(string path, Limits? limits = null) => Open(new FileBytes(path), limits);

    /// <summary>Takes ownership of <paramref name="file"/> (disposed here when it is not an ELF core).</summary>
    internal static ElfCoreFile Open(FileBytes file, Limits? limits = null)
    {
        try
        {
            ElfFile elf = ElfFile.Read(file, limits ?? Limits.Default);
            if (elf.Type != ElfFile.TypeCore)
                throw new InvalidDataException($"{file.Path}: an ELF file, but not a core dump (e_type {elf.Type}).");
            return new ElfCoreFile(file, elf);
        }
        catch
        {
            file.Dispose();
            throw;
        }
    }

    public IReadOnlyList<ElfThreadStatus> ReadThreadStatuses()
    {
        var result = new List<ElfThreadStatus>();
        foreach (ElfNote note in Elf.EnumerateNotes())
            if (note.Type == ElfNote.PrStatus && note.Name == "CORE" && ElfThreadStatus.Parse(note.Descriptor, Elf.Is64Bit) is { } status)
                result.Add(status);
        return result;
    }

    /// <summary>Reads target memory at <paramref name="address"/>; returns how many bytes the core holds there (never throws).</summary>
    public int ReadMemory(ulong address, Span<byte> buffer)
    {
        int total = 0;
        while (total < buffer.Length)
        {
            ulong at = address + (ulong)total;
            if (at < address)
                break; // wrapped past the top of the address space
            int index = SortedRanges.Find(_loads, at);
            if (index < 0)
                break;
            Load load = _loads[index];
            ulong inLoad = at - load.Start;
            int want = (int)Math.Min((ulong)(buffer.Length - total), load.Size - inLoad);
            ulong offset = load.Offset + inLoad;
            if (offset > long.MaxValue)
                break;
            int read = _file.Read((long)offset, buffer.Slice(total, want));
            total += read;
            if (read < want)
                break; // a truncated core
        }
        return total;
    }

    /// <summary>The end of the PT_LOAD holding <paramref name="address"/>: createdump and the kernel write one per mapping.</summary>
    public ulong RegionEnd(ulong address) => SortedRanges.Find(_loads, address) is >= 0 and int i ? _loads[i].Start + _loads[i].Size : 0;

    /// <summary>A PT_LOAD's captured bytes: the virtual range and where it starts in the file.</summary>
    private readonly record struct Load(ulong Start, ulong Size, ulong Offset) : IAddressRange;

    public void Dispose() => _file.Dispose();
}
