using DiagExt.Core.Native.Elf;

namespace DiagExt.Fuzz.Seeds;

/// <summary>
/// The heads of ELF cores: everything up to the first PT_LOAD's bytes (header, program headers, notes), which is all
/// the ELF reader parses; a 150 MB core gives a seed of a few hundred KB.
/// </summary>
internal static class ElfSeeds
{
    private const long MaxHead = 16 * 1024 * 1024;

    public static IEnumerable<(string, byte[])> From(IEnumerable<string> cores)
    {
        foreach (string path in cores)
        {
            long end;
            using (ElfCoreFile core = ElfCoreFile.Open(path))
            {
                end = core.Elf.ProgramHeaders.Where(h => h.Type == ElfProgramHeader.Load && h.FileSize > 0).Select(h => (long)h.Offset).DefaultIfEmpty(MaxHead).Min();
                end = Math.Min(Math.Min(end, MaxHead), core.FileLength);
            }
            using FileStream file = File.OpenRead(path);
            var head = new byte[end];
            file.ReadExactly(head);
            yield return (Path.GetFileNameWithoutExtension(path) + "-head", head);
        }
    }
}
