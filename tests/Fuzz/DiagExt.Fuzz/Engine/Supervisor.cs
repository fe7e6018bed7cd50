using System.Diagnostics;
using System.Globalization;
using System.Text.Json;

namespace DiagExt.Fuzz.Engine;

/// <summary>
/// Runs one target for a fixed time in worker processes, so that what kills a process (a stack overflow, a native
/// fault, a hang the watchdog ends) is a finding and not the end of the run: the worker is restarted with the next
/// seed and the supervisor saves the input that was in flight. Each worker's heap is capped (GCHeapHardLimit), so a
/// runaway allocation is an OutOfMemoryException the worker reports, not a machine out of memory.
/// </summary>
public sealed class Supervisor(string target, string outputRoot, int seed, TimeSpan duration, TimeSpan inputTimeout, IReadOnlyList<string> seedDirectories)
{
    public const long WorkerHeapLimit = 3L * 1024 * 1024 * 1024;

    public sealed record Summary(string Target, int Seed, double Seconds, long Executions, double ExecutionsPerSecond, int Restarts,
        int CorpusSize, IReadOnlyDictionary<string, int> Failures);

    public Summary Run(TextWriter log)
    {
        string dir = Path.Combine(outputRoot, target);
        string findings = Path.Combine(dir, "findings");
        string currentPath = Path.Combine(dir, "current-input.bin");
        Directory.CreateDirectory(dir);
        var store = new FindingStore(findings);
        var failures = new Dictionary<string, int>();
        var clock = Stopwatch.StartNew();
        long executions = 0;
        int restarts = 0, corpus = 0;

        while (clock.Elapsed < duration - TimeSpan.FromSeconds(1))
        {
            TimeSpan left = duration - clock.Elapsed;
            (int exit, WorkerLine? last, string stderr) = RunWorker(seed + restarts * 7919, left, dir, findings, currentPath, log, failures);
            executions += last?.Executions ?? 0;
            corpus = Math.Max(corpus, last?.Corpus ?? 0);
            if (exit == 0)
                break;
            restarts++;
            if (exit != Watchdog.HangExitCode)
            {
                // Died without a word: the input in flight is in the memory-mapped file.
                string why = stderr.Contains("Stack overflow", StringComparison.Ordinal) ? "stack overflow" : $"exit code {exit}";
                var failure = new Failure(FailureKind.ProcessDied, $"died: {target}: {why}: {FirstFrames(stderr)}", stderr);
                failures[failure.Signature] = failures.GetValueOrDefault(failure.Signature) + 1;
                if (CurrentInput.ReadBack(currentPath) is { } input)
                    log.WriteLine($"FINDING {store.Record(failure, input) ?? "-"} {failure.Signature}");
                else
                    log.WriteLine($"FINDING - {failure.Signature} (the input in flight was not readable)");
            }
        }
        File.Delete(currentPath);
        var summary = new Summary(target, seed, clock.Elapsed.TotalSeconds, executions, executions / Math.Max(1, clock.Elapsed.TotalSeconds), restarts, corpus, failures);
        File.WriteAllText(Path.Combine(dir, "summary.json"), JsonSerializer.Serialize(summary, new JsonSerializerOptions { WriteIndented = true }));
        return summary;
    }

    private sealed record WorkerLine(long Executions, int Corpus);

    private (int Exit, WorkerLine? Last, string Stderr) RunWorker(int workerSeed, TimeSpan left, string dir, string findings, string currentPath, TextWriter log, Dictionary<string, int> failures)
    {
        var start = new ProcessStartInfo(Environment.ProcessPath!)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        if (Path.GetFileNameWithoutExtension(Environment.ProcessPath!) == "dotnet")
            start.ArgumentList.Add(typeof(Supervisor).Assembly.Location);
        foreach (string arg in new[]
        {
            "worker", target, "--seed", workerSeed.ToString(CultureInfo.InvariantCulture),
            "--seconds", left.TotalSeconds.ToString("0", CultureInfo.InvariantCulture),
            "--timeout", inputTimeout.TotalSeconds.ToString("0", CultureInfo.InvariantCulture),
            "--corpus", Path.Combine(dir, "corpus"), "--findings", findings, "--current", currentPath,
        })
            start.ArgumentList.Add(arg);
        foreach (string seedDir in seedDirectories)
        {
            start.ArgumentList.Add("--seeds");
            start.ArgumentList.Add(seedDir);
        }
        start.Environment["DOTNET_GCHeapHardLimit"] = WorkerHeapLimit.ToString("x", CultureInfo.InvariantCulture);

        using var process = Process.Start(start)!;
        var stderr = new System.Text.StringBuilder();
        process.ErrorDataReceived += (_, e) =>
        {
            if (e.Data is not null && stderr.Length < 64 * 1024)
                stderr.AppendLine(e.Data);
        };
        process.BeginErrorReadLine();
        WorkerLine? last = null;
        var outputDone = Task.Run(() =>
        {
            while (process.StandardOutput.ReadLine() is { } line)
            {
                if (line.StartsWith("STATS ", StringComparison.Ordinal))
                    last = Parse(line);
                else if (line.StartsWith("FINDING ", StringComparison.Ordinal))
                {
                    string signature = line[8..].Split(' ', 2)[^1];
                    lock (failures)
                        failures[signature] = failures.GetValueOrDefault(signature) + 1;
                }
                lock (log)
                    log.WriteLine($"[{target}] {line}");
            }
        });
        // The worker stops itself at its deadline; a worker wedged beyond its watchdog is killed.
        if (!process.WaitForExit(left + inputTimeout + TimeSpan.FromMinutes(2)))
            process.Kill(entireProcessTree: true);
        process.WaitForExit();
        outputDone.Wait(TimeSpan.FromSeconds(10));
        return (process.ExitCode, last, stderr.ToString());
    }

    private static WorkerLine Parse(string line)
    {
        var fields = line.Split(' ').Skip(1).Select(p => p.Split('=')).Where(p => p.Length == 2).ToDictionary(p => p[0], p => p[1]);
        return new WorkerLine(long.Parse(fields["execs"], CultureInfo.InvariantCulture), int.Parse(fields["corpus"], CultureInfo.InvariantCulture));
    }

    private static string FirstFrames(string stderr) =>
        string.Join(" < ", stderr.Split('\n').Select(l => l.Trim()).Where(l => l.StartsWith("at DiagExt.Core", StringComparison.Ordinal)).Distinct().Take(2).Select(l => l[3..].Split('(')[0]));
}
