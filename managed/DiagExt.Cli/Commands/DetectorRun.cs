using System.Diagnostics;
using DiagExt.Cli.CommandLine;
using DiagExt.Core.Analysis;
using DiagExt.Core.Errors;
using DiagExt.Core.Rendering;
using DiagExt.Core.Reports;
using DiagExt.Core.Targets;

namespace DiagExt.Cli.Commands;

/// <summary>The shared body of every command on one target: open it, run the detectors, render, pick the exit code.</summary>
public static class DetectorRun
{
    /// <param name="leftOut">Detectors left out by name (--skip), with the reason their outcome gives.</param>
    public static ExitCode Execute(string command, IReadOnlyList<IDetector> detectors, ParsedArguments arguments, CommandIo io,
        IReadOnlyDictionary<string, string>? leftOut = null)
    {
        TimeSpan sinceProcessStart = DateTime.Now - Process.GetCurrentProcess().StartTime;
        if (IsolatedRun.Applies(arguments))
            return IsolatedRun.Execute(TargetArguments.Describe(arguments), io);
        OutputFormat format = OutputFormats.From(arguments, io);
        using var deadline = new Deadline(arguments.DurationValue(CommonOptions.Timeout.Name), io);
        try
        {
            // A live Linux target is bound to this thread (ptrace): open, analyse and release it here.
            var opening = Stopwatch.StartNew();
            TimeSpan window = detectors.Select(d => d.LiveSampleWindow).DefaultIfEmpty(TimeSpan.Zero).Max();
            using Target target = TargetArguments.Open(arguments, command, deadline.Token, window);
            var startup = new StartupTimes(sinceProcessStart, opening.Elapsed);
            // The pause as the analysis ends: only rendering and letting the process go remain.
            AnalysisReport report = Analyzer.Run(target, detectors, deadline.Token, leftOut) with { Startup = startup, Pause = target.Pause };
            if (report.AllSkipped)
            {
                // Nothing could be analysed (e.g. dictcycle on a dump without .NET): an input error, in one line.
                string reasons = string.Join("; ", report.Outcomes.Select(o => o.Reason).Distinct());
                string skipped = string.Join(", ", report.Outcomes.Select(o => o.Detector));
                throw new DiagExtException($"{target.DisplayName}: {reasons} (no detector could run: {skipped} skipped)");
            }
            OutputFormats.Render(format, report, io, arguments.Has(CommonOptions.Verbose.Name));
            // Stopping the process is the cost of a live read: when a snapshot would likely have cost less, say how.
            if (report.Pause is { SnapshotWouldBeShorter: true } pause)
                io.Error.WriteLine($"diagext: {ReportText.Pause(pause)}: {RemedyWords.Instance.For(Remedy.UseSnapshot)}");
            return report.ExitCode;
        }
        catch (OperationCanceledException) when (deadline.Expired(io.Cancellation))
        {
            throw deadline.TimedOut(TargetArguments.Describe(arguments));
        }
    }
}
