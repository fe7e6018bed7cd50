namespace DiagExt.Tests.Infrastructure;

/// <summary>Builds a sample program once per test run (Release) and returns the path of its executable.</summary>
public static class SampleBuilder
{
    private static readonly Dictionary<string, string> Built = new();
    private static readonly object Gate = new();

    public static string Build(string sample, string? extraArguments = null)
    {
        lock (Gate)
        {
            string key = sample + "|" + extraArguments;
            if (Built.TryGetValue(key, out string? exe))
                return exe;
            string output = Path.Combine(Repo.WorkDirectory, "samples", sample + (extraArguments is null ? "" : "-" + Math.Abs(extraArguments.GetHashCode())));
            var args = new List<string> { "build", Repo.Sample(sample), "-c", "Release", "-o", output, "--nologo", "-v", "q" };
            if (extraArguments is not null)
                args.AddRange(extraArguments.Split(' ', StringSplitOptions.RemoveEmptyEntries));
            ProcessRunner.Result result = ProcessRunner.Run("dotnet", args, TimeSpan.FromMinutes(5));
            if (result.ExitCode != 0)
                throw new InvalidOperationException($"building sample {sample} failed:\n{result.Stdout}\n{result.Stderr}");
            exe = Path.Combine(output, sample);
            Built[key] = exe;
            return exe;
        }
    }
}
