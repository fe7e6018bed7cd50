using System.Text.RegularExpressions;

namespace DiagExt.Tests.Infrastructure;

/// <summary>
/// Dumps of samples/LoaderLockShapes (shapes.exe and its DLLs, built with mingw-w64) run under Wine: each hang shape
/// once, and the busy loader several times in one run. The program prints the thread ids of each role once the shape
/// is in place; the dump is written by minidumpwriter.exe from a separate Wine process, as Wine's writer does it
/// (memory copied while the process runs) or with every thread suspended first. x64 only: 32-bit Wine is not installed.
/// </summary>
public static partial class WineShapeDumps
{
    private static readonly Dictionary<string, ShapeDump> Cache = new();

    /// <param name="mode">threadwait, sectionload or detachwait (see shapes.c).</param>
    public static ShapeDump Hang(string mode)
    {
        lock (Cache)
        {
            if (Cache.TryGetValue(mode, out ShapeDump? cached))
                return cached;
            string path = DumpPath($"shape-{mode}.dmp");
            try
            {
                using SampleProcess process = Start(mode);
                Match ready = HangReady().Match(process.Output);
                if (!ready.Success)
                    throw new InvalidOperationException($"no READY line from shapes.exe {mode}:\n{process.Output}");
                Write(ready.Groups["pid"].Value, path, suspend: false);
                var dump = new ShapeDump(path, uint.Parse(ready.Groups["owner"].Value),
                    ready.Groups["victims"].Value.Split(',').Select(uint.Parse).ToArray(), ready.Value);
                Cache[mode] = dump;
                return dump;
            }
            finally
            {
                WinePrefix.Stop(); // it never ends by itself
            }
        }
    }

    /// <summary>The busy loader dumped <paramref name="count"/> times while it runs, then as many times suspended.</summary>
    public static BusyDumps Busy(int count)
    {
        lock (Cache)
        {
            try
            {
                using SampleProcess process = Start("busy");
                Match ready = BusyReady().Match(process.Output);
                if (!ready.Success)
                    throw new InvalidOperationException($"no READY line from shapes.exe busy:\n{process.Output}");
                var running = new List<string>();
                var suspended = new List<string>();
                for (int i = 0; i < count; i++)
                {
                    running.Add(DumpPath($"shape-busy-running-{i}.dmp"));
                    Write(ready.Groups["pid"].Value, running[^1], suspend: false);
                    suspended.Add(DumpPath($"shape-busy-suspended-{i}.dmp"));
                    Write(ready.Groups["pid"].Value, suspended[^1], suspend: true);
                }
                return new BusyDumps(running, suspended, ready.Groups["threads"].Value.Split(',').Select(uint.Parse).ToArray());
            }
            finally
            {
                WinePrefix.Stop();
            }
        }
    }

    private static SampleProcess Start(string mode)
    {
        WinePrefix.EnsureCreated();
        string shapes = Path.Combine(WineDumpMaker.Build("LoaderLockShapes", "x86_64"), "shapes.exe");
        return SampleProcess.StartAndWaitReady("wine", [shapes, mode], TimeSpan.FromSeconds(90), WinePrefix.Environment);
    }

    private static void Write(string pid, string path, bool suspend)
    {
        string writer = Path.Combine(WineDumpMaker.Build("LoaderLockShapes", "x86_64"), "minidumpwriter.exe");
        string[] arguments = suspend ? [writer, "--suspend", pid, WinePrefix.WindowsPath(path)] : [writer, pid, WinePrefix.WindowsPath(path)];
        ProcessRunner.Result written = ProcessRunner.Run("wine", arguments, TimeSpan.FromMinutes(2), environment: WinePrefix.Environment);
        if (written.ExitCode != 0 || !File.Exists(path))
            throw new InvalidOperationException($"minidumpwriter failed ({written.ExitCode}):\n{written.Stdout}\n{written.Stderr}");
    }

    private static string DumpPath(string name)
    {
        string path = Path.Combine(Repo.WorkDirectory, "dumps", name);
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        File.Delete(path);
        return path;
    }

    [GeneratedRegex(@"READY (?<pid>\d+) owner (?<owner>\d+) victims (?<victims>[\d,]+)")]
    private static partial Regex HangReady();

    [GeneratedRegex(@"READY (?<pid>\d+) busy (?<threads>[\d,]+)")]
    private static partial Regex BusyReady();
}

/// <summary>A hang shape's dump and the roles shapes.exe reported: the loader lock's owner and the threads it blocks.</summary>
public sealed record ShapeDump(string Path, uint Owner, IReadOnlyList<uint> Victims, string ReadyLine);

/// <summary>The busy loader's dumps: written while it ran, and with its threads suspended; and its looping threads.</summary>
public sealed record BusyDumps(IReadOnlyList<string> Running, IReadOnlyList<string> Suspended, IReadOnlyList<uint> Threads);
