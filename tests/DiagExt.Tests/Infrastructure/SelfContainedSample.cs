namespace DiagExt.Tests.Infrastructure;

/// <summary>
/// A sample published self-contained for one .NET runtime version (its runtime pack restores from the mirror: 8.0.x
/// and 9.0.x are served), so it runs on that runtime and ships that runtime's own createdump and DAC beside it.
/// Published once per test run.
/// </summary>
public static class SelfContainedSample
{
    private static readonly Dictionary<string, string> Published = new();
    private static readonly object Gate = new();

    /// <returns>The path of the published executable.</returns>
    public static string Publish(string sample, string runtimeVersion)
    {
        lock (Gate)
        {
            string key = $"{sample}|{runtimeVersion}";
            if (Published.TryGetValue(key, out string? exe))
                return exe;
            string framework = $"net{runtimeVersion.Split('.')[0]}.0";
            string work = Path.Combine(Repo.WorkDirectory, "self-contained", $"{sample}-{runtimeVersion}");
            string bin = Path.Combine(work, "bin");
            string obj = Path.Combine(work, "obj") + "/";
            string[] properties =
            [
                "-r", "linux-x64", "-p:SelfContained=true", $"-p:TargetFramework={framework}", $"-p:RuntimeFrameworkVersion={runtimeVersion}",
                $"-p:BaseIntermediateOutputPath={obj}", $"-p:MSBuildProjectExtensionsPath={obj}", "--nologo", "-v", "q",
                // The sample's own obj/ (SampleBuilder's in-place build, maybe running beside this one) is not
                // excluded once obj is elsewhere: their generated AssemblyInfo would compile twice (CS0579).
                "-p:DefaultItemExcludes=obj/**",
            ];
            // Restore apart: a publish that restores with a TargetFramework override writes assets without it.
            Check(sample, runtimeVersion, "restore", ProcessRunner.Run("dotnet", ["restore", Repo.Sample(sample), .. properties], TimeSpan.FromMinutes(10)));
            Check(sample, runtimeVersion, "publish", ProcessRunner.Run("dotnet", ["publish", Repo.Sample(sample), "-c", "Release", "--no-restore", "-o", bin, .. properties], TimeSpan.FromMinutes(10)));
            exe = Path.Combine(bin, sample);
            Published[key] = exe;
            return exe;
        }
    }

    /// <summary>The createdump the published runtime ships.</summary>
    public static string CreateDumpOf(string exe) => Path.Combine(Path.GetDirectoryName(exe)!, "createdump");

    private static void Check(string sample, string version, string step, ProcessRunner.Result result)
    {
        if (result.ExitCode != 0)
            throw new InvalidOperationException($"{step} of {sample} for .NET {version} failed:\n{result.Stdout}\n{result.Stderr}");
    }
}
