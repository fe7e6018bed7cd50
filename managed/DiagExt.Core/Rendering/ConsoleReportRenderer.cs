using System.Globalization;
using DiagExt.Core.Reports;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Rendering;

/// <summary>
/// Renders a report for people, WinDbg style (hex addresses and thread ids), as plain text or DML.
/// It only formats what the findings say; it never reads the target.
/// </summary>
/// <param name="verbose">Also print where a failed detector failed (its stack), for a bug report, and where the time went (<see cref="PhaseLines"/>).</param>
public sealed class ConsoleReportRenderer(IMarkupStyle style, bool verbose = false)
{
    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    public void Render(AnalysisReport report, TextWriter output)
    {
        output.WriteLine(style.Text(Header(report.Subject, report.HeapObjects)));
        var advicePrinted = new HashSet<string>(StringComparer.Ordinal);
        foreach (DetectorOutcome outcome in report.Outcomes)
        {
            if (outcome.Status == DetectorStatus.Skipped)
                output.WriteLine(style.Text($"{outcome.Detector}: skipped: {outcome.Reason}"));
            else if (outcome.Status == DetectorStatus.Failed)
                RenderFailure(outcome, output);
            else if (outcome.Reason is { } note)
                output.WriteLine(style.Text($"{outcome.Detector}: note: {note}"));
            if (outcome.Status == DetectorStatus.Ran && verbose && outcome.Detail is { } setAside)
            {
                output.WriteLine(style.Text($"{outcome.Detector}: set aside (weighed, not counted):"));
                WriteDetail(setAside, output);
            }
            foreach (Finding finding in outcome.Findings)
                RenderFinding(finding, advicePrinted, output);
        }
        if (verbose && report.Target is not null)
        {
            output.WriteLine();
            foreach (string line in PhaseLines.Of(report))
                output.WriteLine(style.Text(line));
        }
        output.WriteLine();
        if (report.Incomplete)
            output.WriteLine(style.Strong(style.Text(ReportText.Incomplete(report))));
        output.WriteLine(Footer(report));
    }

    private void RenderFailure(DetectorOutcome outcome, TextWriter output)
    {
        output.WriteLine(style.Strong(style.Text($"{outcome.Detector}: failed: {outcome.Reason}")));
        if (verbose && outcome.Detail is { } detail)
            WriteDetail(detail, output);
    }

    private void WriteDetail(string detail, TextWriter output)
    {
        foreach (string line in detail.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
            output.WriteLine($"    {style.Text(line)}");
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
        string cpu = ReportText.Cpu(thread);
        if (at.Length + caller.Length + cpu.Length > 0)
            output.WriteLine($"        {style.Text($"{at}{caller}{(cpu.Length > 0 && at.Length > 0 ? "; " : "")}{cpu}")}");
        if (thread.Stack is { Count: > 0 } stack)
        {
            output.WriteLine($"        {style.Text("stack:")}");
            foreach (string frame in stack)
                output.WriteLine($"          {style.Text(frame)}");
        }
    }

    private static string Count(int n, string one, string many) => string.Create(Invariant, $"{n:N0} {(n == 1 ? one : many)}");

    private static string Header(ReportSubject subject, long? heapObjects)
    {
        if (subject is AssemblyScanSummary scan)
            return $"{Count(scan.Assemblies, "assembly", "assemblies")} scanned from {Count(scan.Files, "file", "files")} ({scan.Inputs})" +
                   (scan.NativeFilesSkipped > 0 ? $", {Count(scan.NativeFilesSkipped, "native file", "native files")} skipped" : "") +
                   $", {Count(scan.MethodsAnalysed, "method", "methods")} analysed";
        var target = (TargetSummary)subject;
        string kind = target.Kind switch
        {
            TargetKind.WindowsMinidump => "Windows minidump",
            TargetKind.ElfCore => "ELF core",
            _ => "live process",
        };
        string heap = heapObjects is long n ? string.Format(Invariant, ", {0:N0} heap objects", n) : "";
        return $"{target.Name}: {target.Platform} {target.Architecture} {kind}, {ReportText.Runtime(target.Runtime)}, {target.ThreadCount} threads{heap}";
    }

    private string Footer(AnalysisReport report)
    {
        string perDetector = string.Join(", ", report.Outcomes.Where(o => o.Status == DetectorStatus.Ran).Select(o => $"{o.Detector}: {o.Findings.Count}"));
        string cpu = report.Target?.CpuTimeUnavailable is { } why ? $"; {why}" : "";
        string pause = report.Pause is { } p ? $"; {ReportText.Pause(p)}" : "";
        return style.Text(string.Format(Invariant, "{0} ({1}) in {2:0.00}s{3}{4}", ReportText.Count(report, "no hazard found"), perDetector, report.Elapsed.TotalSeconds, cpu, pause));
    }
}
