namespace DiagExt.Fuzz.Targets.Pe;

/// <summary>
/// Small real Windows DLLs shipped with Wine (x64 and x86; scripts/setup-windows-tools.sh installs Wine), mapped as
/// the loader maps them: seeds for the PE reader that need no dump.
/// </summary>
public static class WineImages
{
    private static readonly string[] Directories = ["/usr/lib/x86_64-linux-gnu/wine/x86_64-windows", "/usr/lib/x86_64-linux-gnu/wine/i386-windows", "/usr/lib/i386-linux-gnu/wine/i386-windows"];

    public static IEnumerable<byte[]> Small(int count = 6, long maxFileBytes = 200_000)
    {
        foreach (string directory in Directories.Where(Directory.Exists))
        {
            int taken = 0;
            foreach (string file in Directory.EnumerateFiles(directory, "*.dll").Order(StringComparer.Ordinal))
            {
                if (taken >= count / 2 || new FileInfo(file).Length > maxFileBytes)
                    continue;
                if (PeMapper.Map(File.ReadAllBytes(file)) is { } image)
                {
                    taken++;
                    yield return image;
                }
            }
        }
    }
}
