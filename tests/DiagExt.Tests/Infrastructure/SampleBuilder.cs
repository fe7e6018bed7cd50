namespace DiagExt.Tests.Infrastructure;

/// <summary>Builds a sample program once per test run (Release) and returns the path of its executable.</summary>
public static class SampleBuilder
{
    private static readonly Dictionary<string, string> Built = new();
    private static readonly object Gate = new();

    /// <summary>Builds <paramref name="sample"/>; <paramref name="framework"/> picks one target of a multi-targeted sample.</summary>
    public static string Build(string sample, string? framework = null)
    {
        lock (Gate)
        {
            string key = sample + "|" + framework;
            if (Built.TryGetValue(key, out string? exe))
                return exe;
            string output = Path.Combine(Repo.WorkDirectory, "samples", sample + (framework is null ? "" : "-" + framework));
            var args = new List<string> { "build", Repo.Sample(sample), "-c", "Release", "-o", output, "--nologo", "-v", "q" };
            if (framework is not null)
                args.AddRange(["-f", framework]);
            ProcessRunner.Result result = ProcessRunner.Run("dotnet", args, TimeSpan.FromMinutes(5));
            if (result.ExitCode != 0)
                throw new InvalidOperationException($"building sample {sample} failed:\n{result.Stdout}\n{result.Stderr}");
            exe = Path.Combine(output, sample);
            Built[key] = exe;
            return exe;
        }
    }
}
