using System.Globalization;
using System.Text.Json;
using DiagExt.Core.Reports;

namespace DiagExt.Core.Rendering.Batch;

/// <summary>
/// The batch report as one self-contained HTML page (style and script inline, a Content-Security-Policy
/// that forbids loading anything): totals, a sortable table of dumps, each finding expandable with its
/// evidence, threads, fix and all its fields, the errors and the skipped files. Every string from a dump
/// goes through <see cref="HtmlEscaper"/>; ids and links are built from numbers only.
/// </summary>
public static class BatchHtmlRenderer
{
    private static readonly Lazy<string> Css = new(() => Resource("report.css"));
    private static readonly Lazy<string> Script = new(() => Resource("report.js"));

    /// <param name="json">The finding contracts: each finding's own fields are listed as its JSON names them.</param>
    public static void Render(BatchReport batch, TextWriter o, ReportJson json)
    {
        o.WriteLine("<!DOCTYPE html>");
        o.WriteLine("<html lang=\"en\"><head><meta charset=\"utf-8\">");
        o.WriteLine("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'\">");
        o.WriteLine("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">");
        o.WriteLine("<title>DiagExt batch report</title>");
        o.WriteLine($"<style>{Css.Value}</style></head><body>");
        WriteHeader(batch, o);
        o.WriteLine("<main>");
        var groups = batch.Dumps.Select((d, i) => (Dump: d, Index: i)).ToList();
        WriteTable(batch, groups, o);
        WriteFindings(batch, groups, o, json);
        SeriesHtml.Write(batch, o);
        WriteProblems(batch, o);
        o.WriteLine("</main>");
        o.WriteLine($"<footer>diagext {E(ToolVersion.Current)}: names the cause of a hung .NET process from a dump. Exit code of this batch: {(int)batch.ExitCode} (0 nothing found, 1 hazards found, 2 no dump could be analysed, 3 a detector failed on some dump).</footer>");
        o.WriteLine($"<script>{Script.Value}</script>");
        o.WriteLine("</body></html>");
    }

    private static void WriteHeader(BatchReport batch, TextWriter o)
    {
        o.WriteLine("<header><h1>DiagExt batch report</h1>");
        string when = DateTime.UtcNow.ToString("yyyy-MM-dd HH:mm 'UTC'", CultureInfo.InvariantCulture);
        string wall = string.Format(CultureInfo.InvariantCulture, "{0:0.0} s wall with {1} parallel job{2}", batch.Elapsed.TotalSeconds, batch.Jobs, batch.Jobs == 1 ? "" : "s");
        o.WriteLine($"<p class=\"meta\">{E(when)} &middot; {E(wall)} &middot; inputs: <span class=\"mono\">{E(string.Join(", ", batch.Inputs))}</span>{(batch.Cancelled ? " &middot; <b>cancelled before the end</b>" : "")}</p>");
        o.WriteLine("<div class=\"cards\">");
        Card(o, batch.Dumps.Count, "dumps", "");
        Card(o, batch.Analysed, "analysed", "ok");
        Card(o, batch.Failed, "failed", batch.Failed > 0 ? "warn" : "");
        if (batch.Incomplete.Any())
            Card(o, batch.Incomplete.Count(), "incomplete", "warn");
        Card(o, batch.Findings.Count, "findings", batch.Hazards > 0 ? "hazard" : "ok");
        foreach (var (detector, count) in batch.FindingsByDetector)
            Card(o, count, detector, "hazard");
        if (batch.Duplicates > 0)
            Card(o, batch.Duplicates, "duplicates", "");
        if (batch.Skipped.Count > 0)
            Card(o, batch.Skipped.Count, "skipped files", "");
        o.WriteLine("</div></header>");
    }

    private static void Card(TextWriter o, int value, string label, string kind) =>
        o.WriteLine($"<div class=\"card {kind}\"><b>{value}</b>{E(label)}</div>");

    private static void WriteTable(BatchReport batch, List<(DumpResult Dump, int Index)> dumps, TextWriter o)
    {
        IReadOnlyList<string> detectors = batch.Detectors;
        o.WriteLine("<h2>Dumps</h2>");
        // In a box of its own that scrolls sideways: a wide table (many detectors, long paths) must not widen the page.
        o.WriteLine("<div class=\"wide\"><table class=\"sortable\" id=\"dumps\"><thead><tr>");
        o.Write(Head("Dump") + Head("Result", sortsAsNumber: true) + Head("Runtime") + Head("Threads", numeric: true));
        foreach (string detector in detectors)
            o.Write(Head(detector, numeric: true));
        o.WriteLine(Head("Size", numeric: true) + Head("Time", numeric: true) + Head("Note") + "</tr></thead><tbody>");
        foreach (var (d, index) in dumps)
        {
            bool hasFindings = d.Findings.Count > 0;
            int? target = !hasFindings ? null : d.SameContentAs is null ? index : dumps.First(x => x.Dump.Name == d.SameContentAs).Index;
            string link = target is null ? Path(d.Name) : $"<a href=\"#dump-{target}\">{Path(d.Name)}</a>";
            o.Write($"<tr><td class=\"name\">{link}</td>");
            o.Write($"<td data-sort=\"{SortRank(d)}\">{Badge(d)}</td>");
            o.Write($"<td class=\"runtime\">{E(BatchWords.Runtime(d))}</td>");
            o.Write($"<td class=\"num\">{BatchWords.Threads(d)}</td>");
            foreach (string detector in detectors)
            {
                string cell = BatchWords.DetectorCell(d, detector);
                string why = BatchWords.SkipReason(d, detector) is { } reason ? $" title=\"skipped: {E(reason)}\"" : "";
                o.Write($"<td class=\"num{(cell is not ("" or "-" or "0") ? " hit" : "")}\"{why}>{E(cell)}</td>");
            }
            o.Write($"<td class=\"num\" data-sort=\"{d.SizeBytes ?? 0}\">{E(ReportText.Size(d.SizeBytes))}</td>");
            double seconds = d.SameContentAs is null ? d.Elapsed.TotalSeconds : 0;
            o.Write($"<td class=\"num\" data-sort=\"{seconds.ToString("0.000", CultureInfo.InvariantCulture)}\">{(d.SameContentAs is null ? E(ReportText.Seconds(d.Elapsed)) : "")}</td>");
            string note = d.SameContentAs is not null ? $"same content as {E(d.SameContentAs)}: analysed once"
                : d.Error is not null ? E(d.Error)
                : string.Join("<br>", BatchWords.Notes(d).Select(E));
            o.WriteLine($"<td class=\"reason\">{note}</td></tr>");
        }
        o.WriteLine("</tbody></table></div>");
        o.WriteLine("<p class=\"hint\">Click a column heading to sort; click a dump to see its findings.</p>");
    }

    private static void WriteFindings(BatchReport batch, List<(DumpResult Dump, int Index)> dumps, TextWriter o, ReportJson json)
    {
        IReadOnlyList<BatchFinding> findings = batch.Findings;
        o.WriteLine($"<h2>Findings ({findings.Count})</h2>");
        if (findings.Count == 0)
        {
            o.WriteLine("<p>No hazard found in any dump that could be analysed.</p>");
            return;
        }
        o.WriteLine("<div class=\"toolbar\"><button type=\"button\" id=\"expand-all\">Expand all</button> <button type=\"button\" id=\"collapse-all\">Collapse all</button></div>");
        foreach (var (d, index) in dumps.Where(x => x.Dump.SameContentAs is null && x.Dump.Findings.Count > 0))
        {
            IReadOnlyList<string> others = batch.OtherNames(d.Name);
            string also = others.Count > 0 ? $" <span class=\"kind\">(also named {E(string.Join(", ", others))})</span>" : "";
            o.WriteLine($"<h3 id=\"dump-{index}\" class=\"mono\">{E(d.Name)}{also}</h3>");
            foreach (var finding in d.Findings)
                WriteFinding(finding, o, json);
        }
    }

    private static void WriteFinding(Finding f, TextWriter o, ReportJson json)
    {
        string severity = f.Severity.ToString().ToLowerInvariant(); // a class name: from the enum, never from the dump
        o.WriteLine($"<details class=\"finding {severity}\"><summary><span class=\"det\">{E(f.Detector)}</span>{E(f.Title)}<span class=\"kind\">{E(f.Kind)}{(f.Severity == FindingSeverity.Hazard ? "" : $", {severity}")}</span></summary><div class=\"body\">");
        o.WriteLine($"<p>{E(f.Summary)}</p>");
        if (f is IHasRing { Ring.Count: > 0 } ring)
            o.WriteLine($"<div class=\"ring\">{RingSvg.Render(ring.Ring)}</div>");
        if (f.Evidence.Count > 0)
        {
            o.WriteLine("<h4>Evidence</h4><ul class=\"evidence\">");
            foreach (Markup line in f.Evidence)
                o.WriteLine($"<li>{E(line.ToPlainText())}</li>");
            o.WriteLine("</ul>");
        }
        if (f.Threads.Count > 0)
        {
            bool cpu = f.Threads.Any(t => t.UserCpu is not null); // dumps without CPU times (createdump) get no empty column
            o.WriteLine($"<h4>Threads</h4><table class=\"threads\"><thead><tr><th>OS thread</th><th>managed</th><th>role</th><th>frame</th>{(cpu ? "<th>CPU</th>" : "")}</tr></thead><tbody>");
            foreach (ThreadRef t in f.Threads)
            {
                string frame = t.CallerFrame is null ? E(t.Frame) : $"{E(t.Frame)} &larr; {E(t.CallerFrame)}";
                if (t.Stack is { Count: > 0 } stack)
                    frame += $"<details><summary>stack ({stack.Count} frames)</summary><ol class=\"stack\">{string.Concat(stack.Select(s => $"<li>{E(s)}</li>"))}</ol></details>";
                o.WriteLine($"<tr><td class=\"mono\">0x{t.OsThreadId:x}</td><td>{t.ManagedThreadId}</td><td>{E(t.Role)}</td><td class=\"mono\">{frame}</td>{(cpu ? $"<td>{E(ReportText.Cpu(t))}</td>" : "")}</tr>");
            }
            o.WriteLine("</tbody></table>");
        }
        if (f.Advice is not null)
            o.WriteLine($"<div class=\"fix\"><b>Fix:</b> {E(f.Advice)}</div>");
        var fields = DetectorFields(f, json);
        if (fields.Count > 0)
        {
            o.WriteLine("<details class=\"fields\"><summary>All fields of this finding</summary><dl>");
            foreach (var (name, value) in fields)
                o.WriteLine($"<dt>{E(name)}</dt><dd>{FieldValue(value)}</dd>");
            o.WriteLine("</dl></details>");
        }
        o.WriteLine("</div></details>");
    }

    /// <summary>The detector's own fields, as its JSON has them (the common ones are shown above).</summary>
    private static List<(string Name, JsonElement Value)> DetectorFields(Finding f, ReportJson json) =>
        json.ToElement(f).EnumerateObject().Where(p => !CommonFields.Contains(p.Name)).Select(p => (p.Name, p.Value)).ToList();

    /// <summary>
    /// A string as its text; anything else as indented JSON, in a &lt;pre&gt; when it spans lines, escaped line by line:
    /// its line breaks stay breaks, while every other invisible character of a string from the dump is still shown as \u.
    /// </summary>
    private static string FieldValue(JsonElement value)
    {
        if (value.ValueKind == JsonValueKind.String)
            return E(value.GetString());
        string[] lines = ReadableJson.Write(value).Split('\n');
        return lines.Length == 1 ? E(lines[0]) : $"<pre>{string.Join("\n", lines.Select(E))}</pre>";
    }

    private static readonly HashSet<string> CommonFields = ["severity", "detector", "kind", "title", "summary", "evidence", "threads", "advice"];

    private static void WriteProblems(BatchReport batch, TextWriter o)
    {
        var failed = batch.Distinct.Where(d => d.Status != DumpStatus.Analysed).ToList();
        if (failed.Count > 0)
        {
            o.WriteLine($"<h2>Errors ({failed.Count})</h2><ul class=\"plain\">");
            foreach (DumpResult d in failed)
                o.WriteLine($"<li><span class=\"mono\">{E(d.Name)}</span>: {E(BatchWords.Result(d))}: {E(d.Error)}</li>");
            o.WriteLine("</ul>");
        }
        var incomplete = batch.Incomplete.ToList();
        if (incomplete.Count > 0)
        {
            o.WriteLine($"<h2>Incomplete analyses ({incomplete.Count}): a detector failed, the others' findings are above</h2><ul class=\"plain\">");
            foreach (DumpResult d in incomplete)
                foreach (string failure in BatchWords.Failures(d))
                    o.WriteLine($"<li><span class=\"mono\">{E(d.Name)}</span>: {E(failure)}</li>");
            o.WriteLine("</ul>");
        }
        if (batch.Skipped.Count > 0)
        {
            o.WriteLine($"<h2>Skipped files ({batch.Skipped.Count})</h2><ul class=\"plain\">");
            foreach (SkippedFile s in batch.Skipped)
                o.WriteLine($"<li><span class=\"mono\">{E(s.Name)}</span>: {E(s.Reason)}</li>");
            o.WriteLine("</ul>");
        }
    }

    /// <summary>A column heading; numeric columns are right-aligned, and they and <paramref name="sortsAsNumber"/> ones sort by number.</summary>
    private static string Head(string label, bool numeric = false, bool sortsAsNumber = false) =>
        $"<th{(numeric ? " class=\"num\"" : "")}{(numeric || sortsAsNumber ? " data-type=\"number\"" : "")}>{E(label)}<span class=\"arrow\"></span></th>";

    private static string Badge(DumpResult d)
    {
        string kind = d.SameContentAs is not null ? "dup" : d.Status != DumpStatus.Analysed ? "error" : d.Findings.Any(f => f.IsHazard) ? "hazard" : "ok";
        string text = d.SameContentAs is null ? BatchWords.Result(d) : $"{BatchWords.Result(d)}, same dump";
        return $"<span class=\"badge {kind}\">{E(text)}</span>";
    }

    /// <summary>Sorts hazards first, then clean dumps, then failures.</summary>
    private static int SortRank(DumpResult d) => d.Status != DumpStatus.Analysed ? 0 : 50 + d.Findings.Count + 100 * d.Findings.Count(f => f.IsHazard);

    private static string E(string? text) => HtmlEscaper.Escape(text);

    /// <summary>An escaped path that may wrap after each '/' (long dump names in a narrow column).</summary>
    private static string Path(string name) => E(name).Replace("/", "/<wbr>", StringComparison.Ordinal);

    private static string Resource(string name)
    {
        using Stream stream = typeof(BatchHtmlRenderer).Assembly.GetManifestResourceStream("DiagExt.Html." + name)
            ?? throw new InvalidOperationException($"embedded resource {name} missing");
        using var reader = new StreamReader(stream);
        return reader.ReadToEnd();
    }
}
