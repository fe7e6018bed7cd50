namespace DiagExt.Core.Native.Elf;

/// <summary>Reads the GNU build id of an ELF shared object on disk (to check a DAC's runtime matches the dump's).</summary>
internal static class ElfBuildId
{
    public static byte[]? TryRead(string path)
    {
        try
        {
            using var file = new FileBytes(path);
            ElfFile elf = ElfFile.Read(file, Limits.Default);
            return elf.EnumerateNotes().FirstOrDefault(n => n.Type == ElfNote.GnuBuildId && n.Name == "GNU")?.Descriptor;
        }
        catch (Exception e) when (e is IOException or InvalidDataException or UnauthorizedAccessException)
        {
            return null;
        }
    }
}
