using System.Globalization;
using DiagExt.Core.Analysis;
using DiagExt.Core.Findings;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Rendering;

/// <summary>
/// Renders a report for people, WinDbg style (hex addresses and thread ids), as plain text or DML.
/// It only formats what the findings say; it never reads the target.
/// </summary>
public sealed class ConsoleReportRenderer(IMarkupStyle style)
{
    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    public void Render(AnalysisReport report, TextWriter output)
    {
        output.WriteLine(Header(report.Target, report.HeapObjects));
        var advicePrinted = new HashSet<string>(StringComparer.Ordinal);
        foreach (DetectorOutcome outcome in report.Outcomes)
        {
            if (outcome.Status == DetectorStatus.Skipped)
                output.WriteLine(style.Text($"{outcome.Detector}: skipped: {outcome.Reason}"));
            else if (outcome.Reason is { } note)
                output.WriteLine(style.Text($"{outcome.Detector}: note: {note}"));
            foreach (Finding finding in outcome.Findings)
                RenderFinding(finding, advicePrinted, output);
        }
        output.WriteLine();
        output.WriteLine(Footer(report));
    }

    /// <param name="advicePrinted">Advice already printed in this run: a paragraph shared by many findings is printed once.</param>
    private void RenderFinding(Finding finding, HashSet<string> advicePrinted, TextWriter output)
    {
        output.WriteLine();
        output.WriteLine(style.Strong(style.Text($"[{finding.Detector}] {finding.Title}")));
        output.WriteLine($"  {style.Text(finding.Summary)}");
        foreach (Markup line in finding.Evidence)
            output.WriteLine($"  {string.Concat(line.Pieces.Select(style.Piece))}");
        if (finding.Threads.Count > 0)
        {
            output.WriteLine($"  {style.Text("threads:")}");
            foreach (ThreadRef thread in finding.Threads)
                RenderThread(thread, output);
        }
        if (finding.Advice is { } advice)
            output.WriteLine($"  {style.Text(advicePrinted.Add(advice) ? $"fix: {advice}" : "fix: as above")}");
    }

    // Literal text goes through style.Text too: in DML even the renderer's own " <- " would open a tag.
    private void RenderThread(ThreadRef thread, TextWriter output)
    {
        string managed = thread.ManagedThreadId is int m ? $" (managed {m})" : "";
        output.WriteLine($"    {style.Piece(new MarkupPiece.Thread(thread.OsThreadId))}{style.Text($"{managed} {thread.Role}")}");
        string at = thread.Frame is null ? "" : $"at {thread.Frame}";
        string caller = thread.CallerFrame is null ? "" : $" <- {thread.CallerFrame}";
        string cpu = CpuText(thread);
        if (at.Length + caller.Length + cpu.Length > 0)
            output.WriteLine($"        {style.Text($"{at}{caller}{(cpu.Length > 0 && at.Length > 0 ? "; " : "")}{cpu}")}");
        if (thread.Stack is { Count: > 0 } stack)
        {
            output.WriteLine($"        {style.Text("stack:")}");
            foreach (string frame in stack)
                output.WriteLine($"          {style.Text(frame)}");
        }
    }

    private static string CpuText(ThreadRef thread)
    {
        if (thread.UserCpuSeconds is not double user)
            return "";
        string text = $"CPU user {FormatSeconds(user)} kernel {FormatSeconds(thread.KernelCpuSeconds ?? 0)}";
        if (thread.RecentCpuShare is double share)
            text += string.Format(Invariant, ", {0:0}% of a core just before attach", share * 100);
        return text;
    }

    /// <summary>Like !runaway: d:hh:mm:ss.fff for long times, seconds for short ones.</summary>
    public static string FormatSeconds(double seconds)
    {
        var span = TimeSpan.FromSeconds(seconds);
        return span.TotalHours >= 1
            ? string.Format(Invariant, "{0}:{1:mm\\:ss\\.fff}", (int)span.TotalHours, span)
            : string.Format(Invariant, "{0:0.000}s", seconds);
    }

    private string Header(TargetSummary target, long? heapObjects)
    {
        if (target.Kind == TargetKind.Assemblies)
            return style.Text(target.Name);
        string kind = target.Kind switch
        {
            TargetKind.WindowsMinidump => "Windows minidump",
            TargetKind.ElfCore => "ELF core",
            _ => "live process",
        };
        string runtime = target.Runtime.Availability switch
        {
            RuntimeAvailability.Loaded => $"{target.Runtime.Flavor} {target.Runtime.Version}",
            RuntimeAvailability.NotPresent => "no .NET runtime",
            _ => $"{target.Runtime.Flavor} {target.Runtime.Version} (not loadable)",
        };
        string heap = heapObjects is long n ? string.Format(Invariant, ", {0:N0} heap objects", n) : "";
        return style.Text($"{target.Name}: {target.Platform} {target.Architecture} {kind}, {runtime}, {target.ThreadCount} threads{heap}");
    }

    private string Footer(AnalysisReport report)
    {
        int count = report.Findings.Count();
        string perDetector = string.Join(", ", report.Outcomes.Where(o => o.Status == DetectorStatus.Ran).Select(o => $"{o.Detector}: {o.Findings.Count}"));
        string summary = count == 0 ? "no hazard found" : count == 1 ? "1 finding" : $"{count} findings";
        string cpu = report.Target.CpuTimeUnavailable is { } why ? $"; {why}" : "";
        return style.Text(string.Format(Invariant, "{0} ({1}) in {2:0.00}s{3}", summary, perDetector, report.Elapsed.TotalSeconds, cpu));
    }
}
