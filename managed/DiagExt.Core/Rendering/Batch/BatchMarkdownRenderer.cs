using System.Globalization;
using DiagExt.Core.Reports;

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
        WriteSeries(batch, output);

        var failed = batch.Distinct.Where(d => d.Status != DumpStatus.Analysed).ToList();
        if (failed.Count > 0)
        {
            output.WriteLine("## Errors");
            output.WriteLine();
            foreach (DumpResult d in failed)
                output.WriteLine($"- **{Md(d.Name)}** ({Md(BatchWords.Result(d))}): {Md(d.Error)}");
            output.WriteLine();
        }
        var incomplete = batch.Incomplete.SelectMany(d => BatchWords.Failures(d).Select(f => $"- **{Md(d.Name)}**: {Md(f)}")).ToList();
        if (incomplete.Count > 0)
        {
            output.WriteLine("## Incomplete (a detector failed)");
            output.WriteLine();
            foreach (string line in incomplete)
                output.WriteLine(line);
            output.WriteLine();
        }
        var notes = batch.Distinct.SelectMany(d => BatchWords.Notes(d).Select(n => $"- **{Md(d.Name)}**: {Md(n)}")).ToList();
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
        IReadOnlyList<string> detectors = batch.Detectors;
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
                Md(BatchWords.Result(d)),
                Md(BatchWords.Runtime(d)),
                Md(BatchWords.Threads(d)),
            };
            cells.AddRange(detectors.Select(x => Md(BatchWords.DetectorCell(d, x))));
            cells.Add(d.SameContentAs is null ? Md(ReportText.Seconds(d.Elapsed)) : $"same as {Md(d.SameContentAs)}");
            output.WriteLine($"| {string.Join(" | ", cells)} |");
        }
        output.WriteLine();
    }

    /// <summary>Each series as a threads x dumps table, after what it proves and what moved.</summary>
    private static void WriteSeries(BatchReport batch, TextWriter output)
    {
        foreach (DumpSeries series in batch.Series)
        {
            output.WriteLine($"## Series: {Md(SeriesWords.Heading(series))}");
            output.WriteLine();
            for (int i = 0; i < series.Dumps.Count; i++)
                output.WriteLine($"{i + 1}. {Md(SeriesWords.Dump(series.Dumps[i]))}");
            output.WriteLine();
            foreach ((string label, string text) in SeriesWords.Verdicts(series))
                output.WriteLine($"- **{label}:** {Md(text)}");
            output.WriteLine();
            if (series.Threads.Count == 0)
                continue;
            output.WriteLine($"| thread | {string.Join(" | ", series.Dumps.Where(d => d.Analysed).Select((_, i) => $"dump {i + 1}"))} |");
            output.WriteLine($"|---|{string.Concat(series.Dumps.Where(d => d.Analysed).Select(_ => "---|"))}");
            foreach (SeriesThread t in series.Threads)
                output.WriteLine($"| {Md(SeriesWords.Thread(t))} | {string.Join(" | ", t.Cells.Select(c => Md(SeriesWords.Cell(c))))} |");
            output.WriteLine();
        }
    }

    private static void WriteFindings(BatchReport batch, TextWriter output)
    {
        if (batch.Findings.Count == 0)
            return;
        output.WriteLine("## Findings");
        output.WriteLine();
        foreach (BatchFinding f in batch.Findings)
        {
            Finding finding = f.Finding;
            output.WriteLine($"### {Md(f.Dump)}: \\[{Md(finding.Detector)}\\] {Md(finding.Title)}");
            output.WriteLine();
            if (f.AlsoIn.Count > 0)
            {
                output.WriteLine($"Same dump also named: {string.Join(", ", f.AlsoIn.Select(Md))}");
                output.WriteLine();
            }
            output.WriteLine(Md(finding.Summary));
            output.WriteLine();
            foreach (Markup line in finding.Evidence)
                output.WriteLine($"- {Md(line.ToPlainText())}");
            output.WriteLine();
            if (finding.Threads.Count > 0)
            {
                output.WriteLine("| thread | managed | role | frame | CPU |");
                output.WriteLine("|---|---:|---|---|---|");
                foreach (ThreadRef t in finding.Threads)
                {
                    string frame = t.CallerFrame is null ? Md(t.Frame) : $"{Md(t.Frame)} ← {Md(t.CallerFrame)}";
                    output.WriteLine($"| {Md(Hex(t.OsThreadId))} | {Md(t.ManagedThreadId?.ToString(CultureInfo.InvariantCulture))} | {Md(t.Role)} | {frame} | {Md(ReportText.Cpu(t))} |");
                }
                output.WriteLine();
                foreach (ThreadRef t in finding.Threads)
                {
                    if (t.Stack is not { Count: > 0 })
                        continue;
                    output.WriteLine($"Stack of thread {Md(Hex(t.OsThreadId))}:");
                    output.WriteLine();
                    foreach (string frame in t.Stack)
                        output.WriteLine($"1. {Md(frame)}");
                    output.WriteLine();
                }
            }
            if (finding.Advice is not null)
            {
                output.WriteLine($"**Fix:** {Md(finding.Advice)}");
                output.WriteLine();
            }
        }
    }

    private static string Md(string? text) => MarkdownEscaper.Escape(text);

    private static string Hex(uint id) => $"0x{id:x}";
}
