using DiagExt.Core.Native.Elf;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Symbols;

/// <summary>
/// The DictCycle sample published self-contained for .NET 8 (the runtime pack NuGet serves), run, dumped with
/// its own createdump, and its folder then removed: the dump names a runtime that is nowhere on this machine, so
/// its DAC can come only from --dac or a symbol server. The DAC is kept aside in a folder in the symbol-store
/// layout, filed under the key written here from the published libcoreclr.so's build id (not by diagext's code).
/// </summary>
public static class OtherRuntimeDump
{
    public const string RuntimeVersion = "8.0.33";

    private static readonly Lazy<(string Dump, string Store, string Key)> Made = new(Make);

    public static string Dump => Made.Value.Dump;

    /// <summary>A folder holding the DAC at <see cref="Key"/>, as a symbol server's store does.</summary>
    public static string Store => Made.Value.Store;

    public static string Key => Made.Value.Key;

    private static (string, string, string) Make()
    {
        string work = Path.Combine(Repo.WorkDirectory, "dictcycle-net8");
        string bin = Path.Combine(work, "bin");
        string obj = Path.Combine(work, "obj") + "/";
        if (Directory.Exists(bin))
            Directory.Delete(bin, recursive: true);
        string[] properties =
        [
            "-r", "linux-x64", "-p:SelfContained=true", "-p:TargetFramework=net8.0", $"-p:RuntimeFrameworkVersion={RuntimeVersion}",
            $"-p:BaseIntermediateOutputPath={obj}", $"-p:MSBuildProjectExtensionsPath={obj}", "--nologo", "-v", "q",
        ];
        // Restore apart: a publish that restores with a TargetFramework override writes assets without it.
        Check("restore", ProcessRunner.Run("dotnet", ["restore", Repo.Sample("DictCycle"), .. properties], TimeSpan.FromMinutes(10)));
        Check("publish", ProcessRunner.Run("dotnet", ["publish", Repo.Sample("DictCycle"), "-c", "Release", "--no-restore", "-o", bin, .. properties], TimeSpan.FromMinutes(10)));

        // Through DumpMaker for its retries: a CI run failed here on createdump dying once while gathering state.
        string dump;
        using (SampleProcess process = SampleProcess.StartAndWaitReady(Path.Combine(bin, "DictCycle"), [], TimeSpan.FromMinutes(2)))
            dump = DumpMaker.Dump(process.Pid, "dictcycle-net8.core", Path.Combine(bin, "createdump"));

        byte[] buildId = ElfBuildId.TryRead(Path.Combine(bin, "libcoreclr.so")) ?? throw new InvalidOperationException("the published libcoreclr.so has no build id");
        string key = $"libmscordaccore.so/elf-buildid-coreclr-{Convert.ToHexStringLower(buildId)}/libmscordaccore.so";
        string store = Path.Combine(work, "store");
        if (Directory.Exists(store))
            Directory.Delete(store, recursive: true);
        string filed = Path.Combine(store, key);
        Directory.CreateDirectory(Path.GetDirectoryName(filed)!);
        File.Copy(Path.Combine(bin, "libmscordaccore.so"), filed);
        Directory.Delete(bin, recursive: true);
        return (dump, store, key);
    }

    private static void Check(string step, ProcessRunner.Result result)
    {
        if (result.ExitCode != 0)
            throw new InvalidOperationException($"{step} for the .NET {RuntimeVersion} DictCycle failed:\n{result.Stdout}\n{result.Stderr}");
    }
}
