using System.Text.RegularExpressions;

namespace DiagExt.Tests.Infrastructure;

/// <summary>
/// Real Windows minidumps of the loader-lock fixtures (samples/LoaderLock), made at test time: built with mingw-w64,
/// run under Wine until they print READY, dumped by minidumpwriter.exe running as a separate Wine process (as
/// procdump would), then stopped. Cached by name for the test run.
/// </summary>
public static partial class WineDumpMaker
{
    private static readonly Dictionary<string, WineDump> Cache = new();
    private static readonly Dictionary<string, string> Built = new();

    /// <param name="arch">x86_64 or i686: the fixture's bitness.</param>
    /// <param name="mode">spin, wait, critsec or healthy (see loaderlock.c).</param>
    /// <param name="writerArch">The dump writer's bitness: i686 for an x86 dump, x86_64 for a 32-bit process dumped by a 64-bit writer.</param>
    public static WineDump Dump(string arch, string mode, string? writerArch = null)
    {
        writerArch ??= arch;
        string name = $"loaderlock-{mode}-{arch}-by-{writerArch}.dmp";
        lock (Cache)
        {
            if (Cache.TryGetValue(name, out WineDump? cached))
                return cached;
            if (arch == "i686" && !WinePrefix.Runs32BitPrograms)
                Assert.Ignore("32-bit Wine (Debian's wine32:i386) is not installed, so x86 fixtures cannot run here; see docs/commands/loaderlock.md (x86)");
            WinePrefix.EnsureCreated();
            string fixtures = Build("LoaderLock", arch);
            string writer = System.IO.Path.Combine(Build("LoaderLock", writerArch), "minidumpwriter.exe");
            string path = System.IO.Path.Combine(Repo.WorkDirectory, "dumps", name);
            Directory.CreateDirectory(System.IO.Path.GetDirectoryName(path)!);
            File.Delete(path);
            // A Wine start can stall on this busy shared machine (seen twice in some ten runs, only with the
            // 32-bit loader): one retry, logged, in a freshly stopped prefix.
            for (int attempt = 1; ; attempt++)
            {
                try
                {
                    WineDump dump = RunAndDump(fixtures, writer, mode, path);
                    Cache[name] = dump;
                    return dump;
                }
                catch (TimeoutException e) when (attempt == 1)
                {
                    TestContext.Out.WriteLine($"retrying {name}: {e.Message}");
                }
                finally
                {
                    WinePrefix.Stop(); // the fixture never ends by itself; this ends it and its wineserver
                }
            }
        }
    }

    private static WineDump RunAndDump(string fixtures, string writer, string mode, string path)
    {
        using SampleProcess process = SampleProcess.StartAndWaitReady(
            "wine", [System.IO.Path.Combine(fixtures, "loaderlock.exe"), mode], TimeSpan.FromSeconds(60), WinePrefix.Environment);
        Match ready = ReadyLine().Match(process.Output);
        if (!ready.Success)
            throw new InvalidOperationException($"no READY line from loaderlock.exe {mode}:\n{process.Output}");
        ProcessRunner.Result written = ProcessRunner.Run("wine", [writer, ready.Groups["pid"].Value, WinePrefix.WindowsPath(path)], TimeSpan.FromMinutes(2), environment: WinePrefix.Environment);
        if (written.ExitCode != 0 || !File.Exists(path))
            throw new InvalidOperationException($"minidumpwriter failed ({written.ExitCode}):\n{written.Stdout}\n{written.Stderr}");
        return new WineDump(path, uint.Parse(ready.Groups["main"].Value), uint.Parse(ready.Groups["other"].Value), ready.Value);
    }

    /// <summary>Builds samples/<paramref name="sample"/> with its build.sh for <paramref name="arch"/>, once per test run.</summary>
    internal static string Build(string sample, string arch)
    {
        lock (Built)
        {
            string key = $"{sample}/{arch}";
            if (Built.TryGetValue(key, out string? dir))
                return dir;
            dir = System.IO.Path.Combine(Repo.WorkDirectory, "samples", sample, arch);
            ProcessRunner.Result result = ProcessRunner.Run("bash", [System.IO.Path.Combine(Repo.Sample(sample), "build.sh"), arch, dir], TimeSpan.FromMinutes(3));
            if (result.ExitCode != 0)
                throw new InvalidOperationException($"building samples/{sample} for {arch} failed:\n{result.Stdout}\n{result.Stderr}");
            Built[key] = dir;
            return dir;
        }
    }

    [GeneratedRegex(@"READY (?<pid>\d+) main (?<main>\d+) (worker|spinner) (?<other>\d+)")]
    private static partial Regex ReadyLine();
}

/// <summary>A fixture's dump and the thread ids it reported: the main thread and the worker (or spinner) thread.</summary>
public sealed record WineDump(string Path, uint MainThread, uint OtherThread, string ReadyLine);
