using System.Diagnostics;
using System.Globalization;
using DiagExt.Cli.CommandLine;
using DiagExt.Core.Analysis;
using DiagExt.Core.Catalog;
using DiagExt.Core.Errors;
using DiagExt.Core.Reports;
using DiagExt.Core.Targets;
using DiagExt.Core.Targets.Live;

namespace DiagExt.Cli.Commands;

/// <summary>
/// "diagext watch --pid N": a hang trigger. Takes a cheap look at the process's waits every interval (each detector's
/// <see cref="ILiveWatch"/>, today hang's: stacks and lock owners, no heap walk) and, when a deadlock, a starved pool or a chain nothing in moved is there in
/// two samples running, writes a dump into the dump folder, analyses it, prints the report and exits 1. Nothing by
/// --timeout: exit 0 and no dump. Ctrl+C: 130, the process left running as it was.
/// </summary>
public sealed class WatchCommand : ICommand
{
    public static readonly OptionSpec Interval = new("--interval", "DURATION", "time between two looks at the process (default 2s)");
    public static readonly OptionSpec DumpDir = new("--dump-dir", "DIR", "where the dump is written when a hang is seen (default: the current folder)");

    private static readonly TimeSpan DefaultInterval = TimeSpan.FromSeconds(2);

    public string Name => "watch";

    public string Summary => "watch a running process and dump it when a hang persists (a deadlock, a starved pool, a chain that does not move)";

    public string Usage => "diagext watch (--pid N | -n NAME) [--interval 2s] [--dump-dir DIR] [--timeout DURATION] [--json]";

    public string Details =>
        "Looks at the process every --interval: its threads' waits from their stacks, who holds each lock (the sync-block table, " +
        "the lock objects their frames reach), the thread pool's counters; no heap walk, so each look stops the process briefly " +
        "(every thread, PTRACE_SEIZE; let go at once). When the same deadlock, the same starved pool, or a chain of blocked threads " +
        "in which no thread moved (same waits, registers, stack words and CPU time) is there in two looks running, it writes a dump " +
        "with the process's own createdump into --dump-dir (NAME_PID_TIME.core), analyses that dump with every detector, prints the " +
        "report and exits 1. No hang by --timeout: exit 0, no dump. Ctrl+C: exit 130, the process left running as it was. A line per " +
        "look goes to stderr. Linux only so far (the dump is written with createdump).";

    public IReadOnlyList<OptionSpec> Options { get; } =
        [CommonOptions.Pid, CommonOptions.Name, Interval, DumpDir, CommonOptions.Timeout, CommonOptions.Dac, .. SymbolArguments.All, CommonOptions.Json, CommonOptions.Help];

    public ExitCode Execute(ParsedArguments arguments, CommandIo io)
    {
        if (arguments.Positionals.Count > 0)
            throw new UsageException($"watch takes a process (--pid N or -n NAME), not '{arguments.Positionals[0]}'");
        if (arguments.IntValue(CommonOptions.Pid.Name) is not int pid)
            throw new UsageException("watch needs a process: --pid N or -n NAME");
        TimeSpan interval = arguments.DurationValue(Interval.Name) ?? DefaultInterval;
        if (interval <= TimeSpan.Zero)
            throw new UsageException($"{Interval.Name}: give a positive duration, e.g. 2s");
        TimeSpan? timeout = arguments.DurationValue(CommonOptions.Timeout.Name);
        string folder = arguments.Value(DumpDir.Name) ?? ".";
        if (!Directory.Exists(folder))
            throw new DiagExtException($"{DumpDir.Name} {folder}: no such folder");
        IReadOnlyList<ILiveWatch> watchers = DetectorCatalog.CreateAll().Select(d => d.LiveWatch).OfType<ILiveWatch>().ToList();
        var watched = Stopwatch.StartNew();
        IReadOnlyList<Finding>[] before = [.. watchers.Select(_ => (IReadOnlyList<Finding>)[])];
        TargetSummary? process = null;
        TimeSpan previous = TimeSpan.Zero;
        for (int look = 1; ; look++)
        {
            io.Cancellation.ThrowIfCancellationRequested();
            TimeSpan at = watched.Elapsed;
            (IReadOnlyList<Finding>[] now, TimeSpan paused, process) = Look(watchers, arguments, io.Cancellation);
            IReadOnlyList<Finding>[] persisting = [.. watchers.Select((w, i) => look > 1 ? w.Persisting(before[i], now[i], at - previous) : [])];
            previous = at;
            io.Error.WriteLine($"watch: look {look} at {Deadline.Describe(watched.Elapsed)}: {Said(now.SelectMany(f => f).ToList())} (process stopped {Deadline.Describe(paused)})");
            if (persisting.Any(p => p.Count > 0))
                return Caught(pid, watchers, persisting, folder, arguments, io);
            before = now;
            if (timeout is { } limit && watched.Elapsed + interval > limit)
            {
                string quiet = $"no hang in {Deadline.Describe(watched.Elapsed)} of watching process {pid} ({look} looks, {Deadline.Describe(interval)} apart): no dump written";
                if (arguments.Has(CommonOptions.Json.Name))
                    OutputFormats.Render(OutputFormat.Json, new AnalysisReport(process, [.. DetectorCatalog.CreateAll().Where(d => d.LiveWatch is not null).Select(d => new DetectorOutcome(d.Name, DetectorStatus.Ran, quiet, [], watched.Elapsed))], null, watched.Elapsed), io, verbose: false);
                else
                    io.Out.WriteLine(quiet);
                return ExitCode.NothingFound;
            }
            if (io.Cancellation.WaitHandle.WaitOne(interval))
                io.Cancellation.ThrowIfCancellationRequested();
        }
    }

    /// <summary>One look: attach (stopping the process), ask each watcher, let go.</summary>
    private static (IReadOnlyList<Finding>[] Found, TimeSpan Paused, TargetSummary Process) Look(IReadOnlyList<ILiveWatch> watchers, ParsedArguments arguments, CancellationToken cancellation)
    {
        using Target target = TargetArguments.Open(arguments, "watch", cancellation);
        if (target.Runtime is null)
            throw new DiagExtException($"{target.DisplayName}: {target.RuntimeStatus.Problem ?? "no .NET runtime"}: watch reads the waits of a .NET process");
        var reading = Stopwatch.StartNew();
        IReadOnlyList<Finding>[] found = [.. watchers.Select(w => w.Look(target, cancellation))];
        return (found, target.Pause?.Stopped ?? reading.Elapsed, Analyzer.Summarize(target));
    }

    private static string Said(IReadOnlyList<Finding> found) =>
        found.Count == 0 ? "no hang" : string.Join("; ", found.Select(h => $"{h.Kind}: {h.Title}"));

    /// <summary>A hang seen twice: the dump, its analysis with the watch's verdicts in it, exit 1.</summary>
    private static ExitCode Caught(int pid, IReadOnlyList<ILiveWatch> watchers, IReadOnlyList<Finding>[] persisting, string folder, ParsedArguments arguments, CommandIo io)
    {
        string name = ProcessNameOf(pid);
        string path = Path.Combine(folder, $"{name}_{pid}_{DateTimeOffset.UtcNow.ToUnixTimeSeconds().ToString(CultureInfo.InvariantCulture)}.core");
        foreach (Finding hang in persisting.SelectMany(p => p))
            io.Error.WriteLine($"watch: seen in two looks running: {hang.Title}");
        (string written, TimeSpan writing) = ProcessDump.Write(pid, path, io.Cancellation);
        io.Error.WriteLine($"watch: wrote {written} (the process paused {Deadline.Describe(writing)} while createdump wrote it); analysing it");
        ParsedArguments forDump = arguments.Without(CommonOptions.Pid.Name, [written]);
        using Target dump = TargetArguments.Open(forDump, "watch", io.Cancellation);
        AnalysisReport report = Analyzer.Run(dump, DetectorCatalog.CreateAll(), io.Cancellation);
        for (int i = 0; i < watchers.Count; i++)
            report = watchers[i].Into(report, persisting[i]);
        OutputFormats.Render(arguments.Has(CommonOptions.Json.Name) ? OutputFormat.Json : OutputFormat.Text, report, io, verbose: false);
        return ExitCode.HazardsFound;
    }

    private static string ProcessNameOf(int pid)
    {
        try
        {
            string comm = File.ReadAllText($"/proc/{pid}/comm").Trim();
            return string.Concat(comm.Select(c => char.IsLetterOrDigit(c) || c is '-' or '.' ? c : '_'));
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return "process";
        }
    }
}
