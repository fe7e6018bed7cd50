using DiagExt.Core.Targets;

namespace DiagExt.Core.Native.Elf;

/// <summary>An ELF core dump as DiagExt reads it itself: per-thread status notes and the length the file must have.</summary>
internal sealed class ElfCoreFile : IDisposable
{
    private readonly FileBytes _file;

    private ElfCoreFile(FileBytes file, ElfFile elf)
    {
        _file = file;
        Elf = elf;
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

    public void Dispose() => _file.Dispose();
}
