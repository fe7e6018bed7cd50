using System.Runtime.InteropServices;

namespace DiagExt.Tests.Infrastructure;

/// <summary>Writes full-memory dumps of live .NET processes with the runtime's own createdump.</summary>
public static class DumpMaker
{
    /// <summary>createdump ships next to the runtime the tests run on (the samples run on the same one).</summary>
    public static string CreateDumpPath { get; } = Path.Combine(RuntimeEnvironment.GetRuntimeDirectory(), "createdump");

    public static string Dump(int pid, string name)
    {
        string dir = Path.Combine(Repo.WorkDirectory, "dumps");
        Directory.CreateDirectory(dir);
        string path = Path.Combine(dir, name);
        File.Delete(path);
        ProcessRunner.Result result = ProcessRunner.Run(CreateDumpPath, ["-u", "-f", path, pid.ToString()], TimeSpan.FromMinutes(2));
        if (result.ExitCode != 0 || !File.Exists(path))
            throw new InvalidOperationException($"createdump failed ({result.ExitCode}):\n{result.Stdout}\n{result.Stderr}");
        return path;
    }

    /// <summary>Builds a sample, runs it until ready, dumps it and stops it. The dump is cached by name for this test run.</summary>
    public static string DumpOfSample(string sample, string dumpName, params string[] arguments)
    {
        lock (Cache)
        {
            if (Cache.TryGetValue(dumpName, out string? cached))
                return cached;
            string exe = SampleBuilder.Build(sample);
            using SampleProcess process = SampleProcess.StartAndWaitReady(exe, arguments, TimeSpan.FromMinutes(3));
            string dump = Dump(process.Pid, dumpName);
            Cache[dumpName] = dump;
            return dump;
        }
    }

    private static readonly Dictionary<string, string> Cache = new();
}
