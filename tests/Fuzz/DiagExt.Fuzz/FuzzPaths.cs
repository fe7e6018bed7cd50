namespace DiagExt.Fuzz;

/// <summary>Where the fuzzer reads seeds and writes its runs: under the repository (found from the working directory or the binary).</summary>
public static class FuzzPaths
{
    public static string Root { get; } = FindRoot();

    public static string SeedRoot => Path.Combine(Root, "artifacts", "fuzz", "seeds");

    public static string RunRoot => Path.Combine(Root, "artifacts", "fuzz");

    /// <summary>The committed regression corpus: every input that once failed.</summary>
    public static string RegressionCorpus(string target) => Path.Combine(Root, "tests", "Fuzz", "corpus", target);

    public static IReadOnlyList<string> SeedDirectories(string target) => [Path.Combine(SeedRoot, target), RegressionCorpus(target)];

    private static string FindRoot()
    {
        foreach (string start in new[] { Directory.GetCurrentDirectory(), AppContext.BaseDirectory })
            for (string? dir = start; dir is not null; dir = Path.GetDirectoryName(dir))
                if (File.Exists(Path.Combine(dir, "DiagExt.sln")))
                    return dir;
        throw new InvalidOperationException("DiagExt.sln not found above the working directory or " + AppContext.BaseDirectory);
    }
}
