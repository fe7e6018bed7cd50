using DiagExt.Core.Catalog;
using DiagExt.Core.Analysis;
using System.Diagnostics;
using System.Globalization;
using System.Text.Json;
using DiagExt.Cli.Child;
using DiagExt.Core.Errors;
using DiagExt.Core.Reports;

namespace DiagExt.Cli.Batch;

/// <summary>
/// Analyses one dump of a batch in its own diagext (<see cref="ChildDiagext"/>: 'diagext analyze DUMP --json', the same
/// single-dump path a user runs). Isolation is the point: a corrupt dump can crash ClrMD or the DAC with
/// a native fault (SIGSEGV) that no catch can stop, and a DAC call that never returns cannot be cancelled;
/// a process can be killed at the timeout, and its memory is returned when it exits. Its price, measured:
/// about 0.2-0.5 s per dump to start a runtime and JIT the analysis again.
/// </summary>
public static class WorkerProcess
{
    private static readonly TimeSpan MemoryPollInterval = TimeSpan.FromMilliseconds(200);

    public static async Task<WorkerOutcome> RunAsync(DumpCandidate dump, BatchSettings settings, CancellationToken cancellation)
    {
        if (dump.Problem is not null)
            return new WorkerOutcome(DumpStatus.Failed, dump.Problem, null, TimeSpan.Zero, null);

        var watch = Stopwatch.StartNew();
        long heapLimit = Math.Max(settings.MemoryBudget, 256L * 1024 * 1024);
        using ChildDiagext child = ChildDiagext.Start(Arguments(dump, settings),
            new Dictionary<string, string> { ["DOTNET_GCHeapHardLimit"] = "0x" + heapLimit.ToString("x", CultureInfo.InvariantCulture) });
        Task<string> output = child.Output.ReadToEndAsync(CancellationToken.None);
        using var stopProbe = new CancellationTokenSource();
        Task<long?> peak = PeakMemoryAsync(child.Id, stopProbe.Token);

        ChildExit exit;
        using (var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellation))
        {
            deadline.CancelAfter(settings.Timeout);
            exit = await child.WaitAsync(deadline.Token).ConfigureAwait(false);
        }
        stopProbe.Cancel();
        string report = await output.ConfigureAwait(false);
        long? peakBytes = await peak.ConfigureAwait(false);
        TimeSpan elapsed = watch.Elapsed;

        if (exit.Killed)
            return cancellation.IsCancellationRequested
                ? new WorkerOutcome(DumpStatus.Cancelled, "cancelled", null, elapsed, peakBytes)
                : new WorkerOutcome(DumpStatus.TimedOut, $"timed out after {Commands.Deadline.Describe(settings.Timeout)} (--timeout); its analysis was stopped", null, elapsed, peakBytes);
        return Interpret(dump, exit, report, elapsed, peakBytes, settings);
    }

    private static List<string> Arguments(DumpCandidate dump, BatchSettings settings)
    {
        var arguments = new List<string> { "analyze", "--json" };
        if (dump.Source.Entry is { } entry)
            arguments.AddRange(["--entry", entry]);
        if (settings.DacPath is { } dac)
            arguments.AddRange(["--dac", dac]);
        arguments.AddRange(settings.SymbolOptions);
        if (settings.Skip.Count > 0)
            arguments.AddRange([Commands.SkipOption.Spec.Name, string.Join(',', settings.Skip)]);
        // The jobs already share the cores: each analysis gets its share of threads, not one per core.
        int threads = Math.Max(1, Environment.ProcessorCount / Math.Max(1, settings.Jobs));
        arguments.AddRange(["--threads", threads.ToString(CultureInfo.InvariantCulture)]);
        arguments.AddRange(["--", dump.Source.Path]);
        return arguments;
    }

    private static WorkerOutcome Interpret(DumpCandidate dump, ChildExit exit, string output, TimeSpan elapsed, long? peak, BatchSettings settings)
    {
        if (exit.Code is (int)ExitCode.NothingFound or (int)ExitCode.HazardsFound or (int)ExitCode.Incomplete)
        {
            try
            {
                return new WorkerOutcome(DumpStatus.Analysed, null, DetectorCatalog.Json.Read(output), elapsed, peak);
            }
            catch (JsonException e)
            {
                return new WorkerOutcome(DumpStatus.Failed, $"the analysis printed no readable report ({e.Message})", null, elapsed, peak);
            }
        }
        if (exit.Code == (int)ExitCode.InputError)
        {
            string line = exit.LastError;
            return new WorkerOutcome(DumpStatus.Failed, line.StartsWith(dump.Name + ": ", StringComparison.Ordinal) ? line[(dump.Name.Length + 2)..] : line, null, elapsed, peak);
        }
        return new WorkerOutcome(DumpStatus.Crashed, exit.Crash(settings.MemoryBudget), null, elapsed, peak);
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
