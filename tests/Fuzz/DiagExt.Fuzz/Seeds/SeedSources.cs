using System.Runtime.InteropServices;

namespace DiagExt.Fuzz.Seeds;

/// <summary>
/// The real inputs seeds are cut from: Windows minidumps (the shared ones, the Wine loader-lock dumps the tests
/// make), createdump cores (the tests make them), and managed assemblies (the IL seed, the shared framework,
/// packages the tests restored).
/// </summary>
public sealed record SeedSources(IReadOnlyList<string> Minidumps, IReadOnlyList<string> Cores, IReadOnlyList<string> Assemblies)
{
    /// <summary>Whatever the repository and a previous test run left on this machine.</summary>
    public static SeedSources Discover()
    {
        string dumps = Path.Combine(FuzzPaths.Root, "artifacts", "test-work", "dumps");
        IEnumerable<string> testDumps = Directory.Exists(dumps) ? Directory.EnumerateFiles(dumps) : [];
        return new SeedSources(
            [.. SharedDumps(), .. testDumps.Where(f => f.EndsWith(".dmp", StringComparison.Ordinal) && Path.GetFileName(f).Contains("-by-", StringComparison.Ordinal)).Order(StringComparer.Ordinal)],
            [.. testDumps.Where(f => f.EndsWith(".core", StringComparison.Ordinal)).Order(StringComparer.Ordinal)],
            [.. AssembliesAtHand()]);
    }

    /// <summary>../shared/dumps/windows-native beside the clone, or beside the folder holding a worktree.</summary>
    public static IEnumerable<string> SharedDumps()
    {
        foreach (string up in new[] { "..", Path.Combine("..", "..") })
        {
            string dir = Path.GetFullPath(Path.Combine(FuzzPaths.Root, up, "shared", "dumps", "windows-native"));
            if (Directory.Exists(dir))
                return Directory.EnumerateFiles(dir, "*.dmp").Order(StringComparer.Ordinal);
        }
        return [];
    }

    private static IEnumerable<string> AssembliesAtHand()
    {
        string own = Path.Combine(AppContext.BaseDirectory, "IlSeed.dll");
        if (File.Exists(own))
            yield return own;
        yield return typeof(Core.Il.AssemblyImage).Assembly.Location;
        // Framework libraries with code in them (facades have none), small enough to run hundreds of times a second.
        foreach (string file in Directory.EnumerateFiles(RuntimeEnvironment.GetRuntimeDirectory(), "System.*.dll").Order(StringComparer.Ordinal)
                     .Where(f => new FileInfo(f).Length is > 60_000 and < 250_000).Take(8))
            yield return file;
        string packages = Path.Combine(FuzzPaths.Root, "artifacts", "test-work", "ctororder-packages", "cache");
        if (Directory.Exists(packages))
            foreach (string file in Directory.EnumerateFiles(packages, "*.dll", SearchOption.AllDirectories).Where(f => f.Contains("net8.0", StringComparison.Ordinal)))
                yield return file;
    }
}
