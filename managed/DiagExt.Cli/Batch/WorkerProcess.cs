using System.Diagnostics;
using System.Globalization;
using System.Text.Json;
using DiagExt.Cli.Commands;
using DiagExt.Core.Batch;

namespace DiagExt.Cli.Batch;

/// <summary>
/// Analyses one dump of a batch in its own diagext process ('diagext analyze DUMP --json', the same
/// single-dump path a user runs). Isolation is the point: a corrupt dump can crash ClrMD or the DAC with
/// a native fault (SIGSEGV) that no catch can stop, and a DAC call that never returns cannot be cancelled;
/// a process can be killed at the timeout, and its memory is returned when it exits. Its price, measured:
/// about 0.2-0.5 s per dump to start a runtime and JIT the analysis again.
/// </summary>
public static class WorkerProcess
{
    /// <summary>Set in an analysing process: the batch's pid, so the worker stops if the batch is killed.</summary>
    public const string ParentVariable = "DIAGEXT_PARENT_PID";

    private const int MaxErrorChars = 64 * 1024;
    private static readonly TimeSpan MemoryPollInterval = TimeSpan.FromMilliseconds(200);

    public static async Task<WorkerOutcome> RunAsync(DumpCandidate dump, BatchSettings settings, CancellationToken cancellation)
    {
        if (dump.Problem is not null)
            return new WorkerOutcome(DumpStatus.Failed, dump.Problem, null, TimeSpan.Zero, null);

        var watch = Stopwatch.StartNew();
        using Process process = Start(dump, settings);
        Task<string> stdout = process.StandardOutput.ReadToEndAsync(CancellationToken.None);
        Task<string> stderr = process.StandardError.ReadToEndAsync(CancellationToken.None);
        using var stopProbe = new CancellationTokenSource();
        Task<long?> peak = PeakMemoryAsync(process.Id, stopProbe.Token);

        DumpStatus? stopped = null;
        using (var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellation))
        {
            deadline.CancelAfter(settings.Timeout);
            try
            {
                await process.WaitForExitAsync(deadline.Token).ConfigureAwait(false);
            }
            catch (OperationCanceledException)
            {
                stopped = cancellation.IsCancellationRequested ? DumpStatus.Cancelled : DumpStatus.TimedOut;
                Kill(process);
                await process.WaitForExitAsync(CancellationToken.None).ConfigureAwait(false);
            }
        }
        stopProbe.Cancel();
        string output = await stdout.ConfigureAwait(false);
        string errors = await stderr.ConfigureAwait(false);
        long? peakBytes = await peak.ConfigureAwait(false);
        TimeSpan elapsed = watch.Elapsed;

        return stopped switch
        {
            DumpStatus.TimedOut => new WorkerOutcome(DumpStatus.TimedOut, $"timed out after {Commands.Deadline.Describe(settings.Timeout)} (--timeout); its analysis was stopped", null, elapsed, peakBytes),
            DumpStatus.Cancelled => new WorkerOutcome(DumpStatus.Cancelled, "cancelled", null, elapsed, peakBytes),
            _ => Interpret(dump, process.ExitCode, output, errors, elapsed, peakBytes, settings),
        };
    }

    private static Process Start(DumpCandidate dump, BatchSettings settings)
    {
        var arguments = new List<string> { "analyze", "--json" };
        if (dump.Source.Entry is { } entry)
            arguments.AddRange(["--entry", entry]);
        if (settings.DacPath is { } dac)
            arguments.AddRange(["--dac", dac]);
        arguments.AddRange(settings.SymbolOptions);
        // The jobs already share the cores: each analysis gets its share of threads, not one per core.
        int threads = Math.Max(1, Environment.ProcessorCount / Math.Max(1, settings.Jobs));
        arguments.AddRange(["--threads", threads.ToString(CultureInfo.InvariantCulture)]);
        arguments.AddRange(["--", dump.Source.Path]);
        (string fileName, IReadOnlyList<string> args) = WorkerLauncher.Command(arguments);
        var info = new ProcessStartInfo(fileName)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            RedirectStandardInput = false,
            UseShellExecute = false,
        };
        foreach (string a in args)
            info.ArgumentList.Add(a);
        info.Environment[ParentVariable] = Environment.ProcessId.ToString(CultureInfo.InvariantCulture);
        long heapLimit = Math.Max(settings.MemoryBudget, 256L * 1024 * 1024);
        info.Environment["DOTNET_GCHeapHardLimit"] = "0x" + heapLimit.ToString("x", CultureInfo.InvariantCulture);
        return Process.Start(info) ?? throw new InvalidOperationException($"cannot start {fileName}");
    }

    private static WorkerOutcome Interpret(DumpCandidate dump, int exitCode, string output, string errors, TimeSpan elapsed, long? peak, BatchSettings settings)
    {
        if (exitCode is 0 or 1)
        {
            try
            {
                using JsonDocument document = JsonDocument.Parse(output);
                return new WorkerOutcome(DumpStatus.Analysed, null, document.RootElement.Clone(), elapsed, peak);
            }
            catch (JsonException e)
            {
                return new WorkerOutcome(DumpStatus.Failed, $"the analysis printed no readable report ({e.Message})", null, elapsed, peak);
            }
        }
        string last = LastLine(errors);
        if (exitCode == 2)
            return new WorkerOutcome(DumpStatus.Failed, StripPrefixes(last, dump.Name), null, elapsed, peak);
        return new WorkerOutcome(DumpStatus.Crashed, ChildCrash.Describe(exitCode, errors, settings.MemoryBudget), null, elapsed, peak);
    }

    private static string LastLine(string text)
    {
        string tail = text.Length > MaxErrorChars ? text[^MaxErrorChars..] : text;
        return tail.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).LastOrDefault() ?? "the analysis failed without a message";
    }

    private static string StripPrefixes(string line, string name)
    {
        if (line.StartsWith("diagext: ", StringComparison.Ordinal))
            line = line["diagext: ".Length..];
        return line.StartsWith(name + ": ", StringComparison.Ordinal) ? line[(name.Length + 2)..] : line;
    }

    private static void Kill(Process process)
    {
        try
        {
            process.Kill(entireProcessTree: true);
        }
        catch (InvalidOperationException)
        {
            // Already gone.
        }
    }

    /// <summary>The process's peak resident memory (VmHWM), read until it exits; Linux only.</summary>
    private static async Task<long?> PeakMemoryAsync(int pid, CancellationToken stop)
    {
        if (!OperatingSystem.IsLinux())
            return null;
        long? peak = null;
        string status = $"/proc/{pid}/status";
        while (!stop.IsCancellationRequested)
        {
            try
            {
                foreach (string line in await File.ReadAllLinesAsync(status, CancellationToken.None).ConfigureAwait(false))
                {
                    if (line.StartsWith("VmHWM:", StringComparison.Ordinal)
                        && long.TryParse(line[6..].Trim().Split(' ')[0], NumberStyles.None, CultureInfo.InvariantCulture, out long kb))
                        peak = Math.Max(peak ?? 0, kb * 1024);
                }
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                break; // exited
            }
            try
            {
                await Task.Delay(MemoryPollInterval, stop).ConfigureAwait(false);
            }
            catch (OperationCanceledException)
            {
                break;
            }
        }
        return peak;
    }
}
