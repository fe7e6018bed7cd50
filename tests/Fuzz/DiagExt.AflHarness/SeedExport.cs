using DiagExt.Fuzz;
using DiagExt.Fuzz.Engine;

namespace DiagExt.AflHarness;

/// <summary>
/// AFL's seed folder for a target: the runner's built-in seeds, its seed folder and the regression corpus, each
/// input once and no larger than a limit (afl-fuzz refuses inputs over 1 MB and works best on a few KB; the
/// runner's whole dumps and large assemblies stay its own).
/// </summary>
public static class SeedExport
{
    public const int DefaultMaxBytes = 256 * 1024;

    /// <summary>Enough seeds to cover the targets' shapes; more only lengthens afl-fuzz's calibration.</summary>
    public const int MaxSeeds = 64;

    public static string Write(IFuzzTarget target, string dir, int maxBytes)
    {
        Directory.CreateDirectory(dir);
        var saved = new HashSet<string>(StringComparer.Ordinal);
        long bytes = 0;
        foreach (byte[] input in Candidates(target).Where(i => i.Length > 0 && i.Length <= maxBytes).OrderBy(i => i.Length))
        {
            if (saved.Count == MaxSeeds)
                break;
            string hash = Convert.ToHexString(System.Security.Cryptography.SHA256.HashData(input))[..16].ToLowerInvariant();
            if (!saved.Add(hash))
                continue;
            File.WriteAllBytes(Path.Combine(dir, $"{target.Name}-{hash}"), input);
            bytes += input.Length;
        }
        return $"{target.Name}: {saved.Count} seeds, {bytes / 1024.0:0.0} KB in {dir}";
    }

    private static IEnumerable<byte[]> Candidates(IFuzzTarget target) =>
        target.BuiltInSeeds().Concat(FuzzPaths.SeedDirectories(target.Name).SelectMany(InputFiles.In).Select(InputFiles.Read));
}
