using System.Globalization;
using DiagExt.Core.Batch;

namespace DiagExt.Core.Rendering.Batch;

/// <summary>
/// The batch report as Markdown (GitHub-flavoured): totals, the summary table, each finding with its
/// evidence, threads and fix, the errors and the skipped files. Every string from a dump is escaped.
/// </summary>
public static class BatchMarkdownRenderer
{
    public static void Render(BatchReport batch, TextWriter output)
    {
        output.WriteLine("# DiagExt batch report");
        output.WriteLine();
        output.WriteLine(Md(BatchTextRenderer.Totals(batch)));
        output.WriteLine();
        output.WriteLine($"diagext {Md(ToolVersion.Current)}, {Md(DateTime.UtcNow.ToString("yyyy-MM-dd HH:mm 'UTC'", CultureInfo.InvariantCulture))}; inputs: {string.Join(", ", batch.Inputs.Select(Md))}");
        output.WriteLine();
        WriteTable(batch, output);
        WriteFindings(batch, output);

        var failed = batch.Distinct.Where(d => d.Status != DumpStatus.Analysed).ToList();
        if (failed.Count > 0)
        {
            output.WriteLine("## Errors");
            output.WriteLine();
            foreach (DumpResult d in failed)
                output.WriteLine($"- **{Md(d.Name)}** ({Md(ReportView.Result(d))}): {Md(d.Error)}");
            output.WriteLine();
        }
        var notes = batch.Distinct.SelectMany(d => ReportView.Notes(d).Select(n => $"- **{Md(d.Name)}**: {Md(n)}")).ToList();
        if (notes.Count > 0)
        {
            output.WriteLine("## Notes");
            output.WriteLine();
            foreach (string line in notes)
                output.WriteLine(line);
            output.WriteLine();
        }
        if (batch.Skipped.Count > 0)
        {
            output.WriteLine("## Skipped (not dumps)");
            output.WriteLine();
            foreach (SkippedFile s in batch.Skipped)
                output.WriteLine($"- {Md(s.Name)}: {Md(s.Reason)}");
            output.WriteLine();
        }
    }

    private static void WriteTable(BatchReport batch, TextWriter output)
    {
        IReadOnlyList<string> detectors = ReportView.DetectorColumns(batch);
        var header = new List<string> { "dump", "result", "runtime", "threads" };
        header.AddRange(detectors.Select(Md));
        header.Add("time");
        output.WriteLine($"| {string.Join(" | ", header)} |");
        output.WriteLine($"|---|---|---|---:|{string.Concat(detectors.Select(_ => "---:|"))}---:|");
        foreach (DumpResult d in batch.Dumps)
        {
            var cells = new List<string>
            {
                Md(d.Name),
                Md(ReportView.Result(d)),
                Md(ReportView.Runtime(d)),
                Md(ReportView.Threads(d)?.ToString(CultureInfo.InvariantCulture)),
            };
            cells.AddRange(detectors.Select(x => Md(ReportView.DetectorCell(d, x))));
            cells.Add(d.SameContentAs is null ? Md(ReportView.Seconds(d.Elapsed)) : $"same as {Md(d.SameContentAs)}");
            output.WriteLine($"| {string.Join(" | ", cells)} |");
        }
        output.WriteLine();
    }

    private static void WriteFindings(BatchReport batch, TextWriter output)
    {
        if (batch.Findings.Count == 0)
            return;
        output.WriteLine("## Findings");
        output.WriteLine();
        foreach (BatchFinding f in batch.Findings)
        {
            FindingView view = FindingView.From(f.Finding);
            output.WriteLine($"### {Md(f.Dump)}: \\[{Md(view.Detector)}\\] {Md(view.Title)}");
            output.WriteLine();
            if (f.AlsoIn.Count > 0)
            {
                output.WriteLine($"Same dump also named: {string.Join(", ", f.AlsoIn.Select(Md))}");
                output.WriteLine();
            }
            output.WriteLine(Md(view.Summary));
            output.WriteLine();
            foreach (string line in view.Evidence)
                output.WriteLine($"- {Md(line)}");
            output.WriteLine();
            if (view.Threads.Count > 0)
            {
                output.WriteLine("| thread | managed | role | frame | CPU |");
                output.WriteLine("|---|---:|---|---|---|");
                foreach (ThreadView t in view.Threads)
                {
                    string frame = t.CallerFrame is null ? Md(t.Frame) : $"{Md(t.Frame)} ← {Md(t.CallerFrame)}";
                    output.WriteLine($"| {Md(t.OsThreadId)} | {Md(t.ManagedThreadId)} | {Md(t.Role)} | {frame} | {Md(t.Cpu)} |");
                }
                output.WriteLine();
                foreach (ThreadView t in view.Threads.Where(t => t.Stack.Count > 0))
                {
                    output.WriteLine($"Stack of thread {Md(t.OsThreadId)}:");
                    output.WriteLine();
                    foreach (string frame in t.Stack)
                        output.WriteLine($"1. {Md(frame)}");
                    output.WriteLine();
                }
            }
            if (view.Advice is not null)
            {
                output.WriteLine($"**Fix:** {Md(view.Advice)}");
                output.WriteLine();
            }
        }
    }

    private static string Md(string? text) => MarkdownEscaper.Escape(text);
}
