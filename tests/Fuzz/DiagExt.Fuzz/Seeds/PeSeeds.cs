using DiagExt.Core.Native.Minidump;
using DiagExt.Fuzz.Targets.Pe;

namespace DiagExt.Fuzz.Seeds;

/// <summary>Module images as dumps hold them (base address and mapped image), plus Wine's own DLLs mapped from disk.</summary>
internal static class PeSeeds
{
    private const int Page = 4096;

    public static IEnumerable<(string, byte[])> From(IEnumerable<string> minidumps)
    {
        var seen = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        foreach (string path in minidumps)
        {
            using MinidumpFile dump = MinidumpFile.Open(path);
            foreach (MinidumpModule module in dump.Modules)
            {
                if (module.SizeOfImage is 0 or > PeMapper.MaxImage || !seen.Add($"{module.FileName}-{module.SizeOfImage:x}"))
                    continue;
                byte[] image = new byte[module.SizeOfImage];
                int captured = 0;
                for (int at = 0; at < image.Length; at += Page) // page by page: a minidump captures parts of an image
                    captured += dump.ReadMemory(module.BaseOfImage + (ulong)at, image.AsSpan(at, Math.Min(Page, image.Length - at)));
                if (captured > 0 && image[0] == (byte)'M')
                    yield return ($"{module.FileName}-{module.SizeOfImage:x}", PeMapper.Input(module.BaseOfImage, image));
            }
        }
        int index = 0;
        foreach (byte[] image in WineImages.Small(count: 8))
            yield return ($"wine-{index++}", PeMapper.Input(0x180000000, image));
    }
}
