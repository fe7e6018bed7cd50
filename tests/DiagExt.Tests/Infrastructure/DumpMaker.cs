using System.Runtime.InteropServices;

namespace DiagExt.Tests.Infrastructure;

/// <summary>Writes full-memory dumps of live .NET processes with the runtime's own createdump.</summary>
public static class DumpMaker
{
    /// <summary>createdump ships next to the runtime the tests run on (the samples run on the same one).</summary>
    public static string CreateDumpPath { get; } = Path.Combine(RuntimeEnvironment.GetRuntimeDirectory(), "createdump");

    /// <summary>Dumps a process with <paramref name="createDump"/> (default: the test runtime's; a self-contained sample ships its own).</summary>
    public static string Dump(int pid, string name, string? createDump = null)
    {
        string dir = Path.Combine(Repo.WorkDirectory, "dumps");
        Directory.CreateDirectory(dir);
        string path = Path.Combine(dir, name);
        File.Delete(path);
        DumpShelf.MakeRoom();
        // createdump itself occasionally dies (seen: SIGSEGV while gathering state of a busy target): retry.
        ProcessRunner.Result? result = null;
        // Seen in a full run: three failures in a row on a sample that throws steadily, so up to six, a moment apart.
        const int attempts = 6;
        for (int attempt = 1; attempt <= attempts; attempt++)
        {
            result = ProcessRunner.Run(createDump ?? CreateDumpPath, ["-u", "-f", path, pid.ToString()], TimeSpan.FromMinutes(2));
            if (result.ExitCode == 0 && File.Exists(path))
            {
                DumpShelf.Used(path);
                return path;
            }
            File.Delete(path);
            // Said, not hidden: the .NET 8 and 9 createdump dies inside the DAC in a few percent of tries.
            string last = (result.Stderr + "\n" + result.Stdout).Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).LastOrDefault() ?? "";
            TestContext.Progress.WriteLine($"createdump of process {pid} failed (exit code {result.ExitCode}: {last}) on attempt {attempt} of {attempts}{(attempt < attempts ? ": retrying" : "")}");
            Thread.Sleep(100 * attempt);
        }
        throw new InvalidOperationException($"createdump failed {attempts} times ({result!.ExitCode}):\n{result.Stdout}\n{result.Stderr}");
    }

    /// <summary>A dump of a sample and what the sample printed before it was dumped.</summary>
    public sealed record SampleDump(string Path, string Output);

    /// <summary>
    /// Builds a sample, runs it until ready, dumps it and stops it. The dump is cached by name for this test run (and
    /// made again if <see cref="DumpShelf"/> deleted it for room).
    /// </summary>
    public static string DumpOfSample(string sample, string dumpName, params string[] arguments) =>
        DumpOfSampleWithOutput(sample, dumpName, arguments).Path;

    public static SampleDump DumpOfSampleWithOutput(string sample, string dumpName, params string[] arguments) =>
        DumpOfSampleWithOutput(sample, null, dumpName, arguments);

    /// <summary>As above, for one target framework of a multi-targeted sample; a self-contained build is dumped with its own createdump.</summary>
    public static SampleDump DumpOfSampleWithOutput(string sample, string? framework, string dumpName, params string[] arguments)
    {
        lock (Cache)
        {
            if (Cache.TryGetValue(dumpName, out SampleDump? cached) && DumpShelf.StillThere(cached.Path))
                return cached;
            string exe = SampleBuilder.Build(sample, framework);
            string ownCreateDump = Path.Combine(Path.GetDirectoryName(exe)!, "createdump");
            using SampleProcess process = SampleProcess.StartAndWaitReady(exe, arguments, TimeSpan.FromMinutes(3));
            // A sample that throws steadily is now and then dumped in the middle of a garbage collection, whose
            // half-moved objects are no fixture (diagext says as much: "take the dump again"): so take it again.
            string path = Dump(process.Pid, dumpName, File.Exists(ownCreateDump) ? ownCreateDump : null);
            for (int again = 0; again < 3 && !HeapWalkable(path); again++)
                path = Dump(process.Pid, dumpName, File.Exists(ownCreateDump) ? ownCreateDump : null);
            var dump = new SampleDump(path, process.Output);
            Cache[dumpName] = dump;
            return dump;
        }
    }

    /// <summary>Whether the runtime in the dump says its heap can be walked (false while a GC was running); true without .NET or its DAC.</summary>
    private static bool HeapWalkable(string dump)
    {
        using var dataTarget = Microsoft.Diagnostics.Runtime.DataTarget.LoadDump(dump, new Microsoft.Diagnostics.Runtime.DataTargetOptions { SymbolPaths = [] });
        using Microsoft.Diagnostics.Runtime.ClrRuntime? runtime = DumpRuntime.TryOpen(dataTarget, out _);
        return runtime?.Heap.CanWalkHeap ?? true;
    }

    private static readonly Dictionary<string, SampleDump> Cache = new();
}
