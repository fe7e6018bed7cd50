using System.Globalization;
using DiagExt.Core.Reports;

namespace DiagExt.Core.Rendering.Batch;

/// <summary>
/// The console summary of a batch: a table (dump, result, runtime, threads, findings per detector, time),
/// then each finding in one line, each error with its one-line reason, the skipped files and the totals.
/// </summary>
public static class BatchTextRenderer
{
    public static void Render(BatchReport batch, TextWriter output)
    {
        IReadOnlyList<string> detectors = batch.Detectors;
        var header = new List<string> { "dump", "result", "runtime", "threads" };
        header.AddRange(detectors);
        header.Add("time");
        var rows = batch.Dumps.Select(d => Row(d, detectors)).ToList();
        WriteTable(output, header, rows, rightAligned: i => i >= 3);

        if (batch.Findings.Count > 0)
        {
            output.WriteLine();
            output.WriteLine("findings:");
            foreach (BatchFinding f in batch.Findings)
            {
                string also = f.AlsoIn.Count > 0 ? $" (also {string.Join(", ", f.AlsoIn)})" : "";
                // A note (say, a chain one dump cannot settle) is listed with the findings but said to be one.
                string note = f.Finding.IsHazard ? "" : " note:";
                output.WriteLine(Clean($"  {f.Dump}{also}: [{f.Finding.Detector}]{note} {f.Finding.Title}"));
            }
        }
        foreach (DumpSeries series in batch.Series)
            WriteSeries(series, output);
        var failed = batch.Distinct.Where(d => d.Status != DumpStatus.Analysed).ToList();
        if (failed.Count > 0)
        {
            output.WriteLine();
            output.WriteLine("errors:");
            foreach (DumpResult d in failed)
                output.WriteLine(Clean($"  {d.Name}: {d.Error ?? BatchWords.Result(d)}"));
        }
        var incomplete = batch.Incomplete.SelectMany(d => BatchWords.Failures(d).Select(f => $"  {d.Name}: {f}")).ToList();
        if (incomplete.Count > 0)
        {
            output.WriteLine();
            output.WriteLine("incomplete (a detector failed; the others' findings are above):");
            foreach (string line in incomplete)
                output.WriteLine(Clean(line));
        }
        var notes = batch.Distinct.SelectMany(d => BatchWords.Notes(d).Select(n => $"  {d.Name}: {n}")).ToList();
        if (notes.Count > 0)
        {
            output.WriteLine();
            output.WriteLine("notes:");
            foreach (string line in notes)
                output.WriteLine(Clean(line));
        }
        var copies = batch.Dumps.Where(d => d.SameContentAs is not null).ToList();
        if (copies.Count > 0)
        {
            output.WriteLine();
            output.WriteLine("same content, analysed once:");
            foreach (DumpResult d in copies)
                output.WriteLine(Clean($"  {d.Name} = {d.SameContentAs}"));
        }
        if (batch.Skipped.Count > 0)
        {
            output.WriteLine();
            output.WriteLine(Clean($"skipped {ReportText.Plural(batch.Skipped.Count, "file")} that {(batch.Skipped.Count == 1 ? "is" : "are")} not a dump: {string.Join(", ", batch.Skipped.Select(s => s.Name))}"));
        }
        output.WriteLine();
        output.WriteLine(Totals(batch));
    }

    /// <summary>A series: its dumps in order, what stayed and what moved, then each thread's wait per dump.</summary>
    private static void WriteSeries(DumpSeries series, TextWriter output)
    {
        output.WriteLine();
        output.WriteLine(Clean($"series: {SeriesWords.Heading(series)}"));
        for (int i = 0; i < series.Dumps.Count; i++)
            output.WriteLine(Clean($"  {i + 1}. {SeriesWords.Dump(series.Dumps[i])}"));
        foreach ((string label, string text) in SeriesWords.Verdicts(series))
            output.WriteLine(Clean($"  {label}: {text}"));
        if (series.Findings.Count == 0 && series.Moved.Count == 0)
            output.WriteLine("  no chain to compare: nothing waits behind another thread in these dumps");
        foreach (SeriesThread t in series.Threads)
        {
            output.WriteLine(Clean($"  thread {SeriesWords.Thread(t)}"));
            for (int i = 0; i < t.Cells.Count; i++)
                output.WriteLine(Clean($"    {i + 1}: {SeriesWords.Cell(t.Cells[i])}"));
        }
    }

    public static string Totals(BatchReport batch)
    {
        string dumps = ReportText.Plural(batch.Dumps.Count, "dump") + (batch.Duplicates > 0 ? $" ({ReportText.Plural(batch.Duplicates, "duplicate")})" : "");
        string perDetector = string.Join(", ", batch.FindingsByDetector.Select(p => $"{p.Key}: {p.Value}"));
        string count = ReportText.Count(batch.Hazards, batch.Findings.Count - batch.Hazards, "no hazard found");
        string findings = batch.Findings.Count == 0 ? count : $"{count} ({perDetector})";
        string cancelled = batch.Cancelled ? "; cancelled before the end" : "";
        return Clean(string.Format(CultureInfo.InvariantCulture, "{0}: {1} analysed, {2} failed; {3}; {4:0.0}s wall with {5} parallel job{6}{7}",
            dumps, batch.Analysed, batch.Failed, findings, batch.Elapsed.TotalSeconds, batch.Jobs, batch.Jobs == 1 ? "" : "s", cancelled));
    }

    private static List<string> Row(DumpResult d, IReadOnlyList<string> detectors)
    {
        var row = new List<string>
        {
            d.Name,
            BatchWords.Result(d),
            BatchWords.Runtime(d),
            BatchWords.Threads(d),
        };
        row.AddRange(detectors.Select(x => BatchWords.DetectorCell(d, x)));
        row.Add(d.SameContentAs is null ? ReportText.Seconds(d.Elapsed) : "(dup)");
        return row;
    }

    private static void WriteTable(TextWriter output, List<string> header, List<List<string>> rows, Func<int, bool> rightAligned)
    {
        var all = rows.Select(r => r.Select(Clean).ToList()).Prepend(header).ToList();
        int[] widths = Enumerable.Range(0, header.Count).Select(i => all.Max(r => r[i].Length)).ToArray();
        foreach (List<string> row in all)
        {
            var cells = row.Select((cell, i) => rightAligned(i) ? cell.PadLeft(widths[i]) : cell.PadRight(widths[i]));
            output.WriteLine(string.Join("  ", cells).TrimEnd());
        }
    }

    private static string Clean(string text) => TextSanitizer.Sanitize(text);
}
