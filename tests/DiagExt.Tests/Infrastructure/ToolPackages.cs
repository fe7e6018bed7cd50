namespace DiagExt.Tests.Infrastructure;

/// <summary>
/// The dotnet tool's packages as scripts/pack-tool.sh makes them, packed once per test run: the tool package tests
/// install them, and the quick bench measures the Native AOT executable the linux-x64 package was packed from, where
/// it published one of its own before (the AOT compile is minutes of CPU; the suite paid it twice).
/// </summary>
public static class ToolPackages
{
    public static string Work => Path.Combine(Repo.WorkDirectory, "tool-package");

    private static readonly Lazy<string> Packed = new(() =>
    {
        if (Directory.Exists(Work))
            Directory.Delete(Work, recursive: true);
        string source = Path.Combine(Work, "nupkg");
        ProcessRunner.Result pack = ProcessRunner.Run("bash", [Path.Combine(Repo.Root, "scripts", "pack-tool.sh"), source], TimeSpan.FromMinutes(20));
        Assert.That(pack.ExitCode, Is.Zero, pack.Stdout + pack.Stderr);
        return source;
    }, LazyThreadSafetyMode.ExecutionAndPublication);

    /// <summary>The folder holding the three packages (a NuGet source).</summary>
    public static string Folder => Packed.Value;

    /// <summary>
    /// The Native AOT executable in the linux-x64 package (the publish folder pack-tool.sh packed), or null on a machine
    /// that packs no native package.
    /// </summary>
    public static string? NativeExecutable
    {
        get
        {
            _ = Packed.Value;
            string executable = Path.Combine(Repo.Root, "managed", "DiagExt.Cli", "bin", "Release", "net10.0", "linux-x64", "publish", "diagext");
            return File.Exists(executable) ? executable : null;
        }
    }
}
