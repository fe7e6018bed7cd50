using System.Text.Encodings.Web;
using System.Text.Json;
using DiagExt.Core.Reports;

namespace DiagExt.Core.Rendering.Batch;

/// <summary>
/// The batch report as one JSON document: like a single-dump report it is one object with a "findings"
/// array (each finding carrying its "dump"), plus one entry per dump name (its target, detectors, or its
/// error), the skipped files and totals. Each dump's own fields are written as its single-dump report has them,
/// with <paramref name="json"/>'s contracts.
/// </summary>
public sealed class BatchJsonRenderer(ReportJson json)
{
    private static readonly JsonWriterOptions WriterOptions = new()
    {
        Indented = true,
        // As in single-dump reports: target strings stay escaped (\u003c...), safe to paste into HTML.
        Encoder = JavaScriptEncoder.Default,
    };

    public void Render(BatchReport batch, Stream output)
    {
        using var w = new Utf8JsonWriter(output, WriterOptions);
        w.WriteStartObject();
        w.WriteNumber("schemaVersion", ReportJson.SchemaVersion);
        w.WriteString("kind", "batch");
        w.WriteStartObject("tool");
        w.WriteString("name", "diagext");
        w.WriteString("version", ToolVersion.Current);
        w.WriteEndObject();
        w.WriteStartArray("inputs");
        foreach (string input in batch.Inputs)
            w.WriteStringValue(input);
        w.WriteEndArray();
        w.WriteNumber("jobs", batch.Jobs);
        w.WriteNumber("elapsedMs", Math.Round(batch.Elapsed.TotalMilliseconds, 1));
        w.WriteBoolean("cancelled", batch.Cancelled);
        w.WriteNumber("exitCode", (int)batch.ExitCode);
        if (batch.Part is { } part)
            WritePart(w, part);
        WriteTotals(w, batch);
        WriteFindings(w, batch);
        WriteSeries(w, batch);
        w.WriteStartArray("dumps");
        foreach (DumpResult dump in batch.Dumps)
            WriteDump(w, dump, batch.Part is not null);
        w.WriteEndArray();
        w.WriteStartArray("skipped");
        foreach (SkippedFile skipped in batch.Skipped)
        {
            w.WriteStartObject();
            w.WriteString("name", skipped.Name);
            w.WriteString("reason", skipped.Reason);
            w.WriteEndObject();
        }
        w.WriteEndArray();
        w.WriteEndObject();
        w.Flush();
        output.WriteByte((byte)'\n');
    }

    public string RenderToString(BatchReport batch)
    {
        using var buffer = new MemoryStream();
        Render(batch, buffer);
        return System.Text.Encoding.UTF8.GetString(buffer.ToArray());
    }

    private static void WriteTotals(Utf8JsonWriter w, BatchReport batch)
    {
        w.WriteStartObject("totals");
        w.WriteNumber("dumps", batch.Dumps.Count);
        w.WriteNumber("distinctDumps", batch.Distinct.Count());
        w.WriteNumber("analysed", batch.Analysed);
        w.WriteNumber("failed", batch.Failed);
        w.WriteNumber("incomplete", batch.Incomplete.Count());
        w.WriteNumber("duplicates", batch.Duplicates);
        w.WriteNumber("skippedFiles", batch.Skipped.Count);
        w.WriteNumber("findings", batch.Findings.Count);
        w.WriteNumber("hazards", batch.Hazards);
        w.WriteStartObject("findingsByDetector");
        foreach (var (detector, count) in batch.FindingsByDetector)
            w.WriteNumber(detector, count);
        w.WriteEndObject();
        w.WriteEndObject();
    }

    private void WriteFindings(Utf8JsonWriter w, BatchReport batch)
    {
        w.WriteStartArray("findings");
        foreach (BatchFinding finding in batch.Findings)
        {
            w.WriteStartObject();
            w.WriteString("dump", finding.Dump);
            if (finding.AlsoIn.Count > 0)
            {
                w.WriteStartArray("alsoIn");
                foreach (string name in finding.AlsoIn)
                    w.WriteStringValue(name);
                w.WriteEndArray();
            }
            foreach (JsonProperty property in json.ToElement(finding.Finding).EnumerateObject())
                property.WriteTo(w);
            w.WriteEndObject();
        }
        w.WriteEndArray();
    }

    /// <summary>Each series: its dumps in order, what it proves (findings, as in the top-level array), what moved, each thread's wait per dump.</summary>
    private void WriteSeries(Utf8JsonWriter w, BatchReport batch)
    {
        w.WriteStartArray("series");
        foreach (DumpSeries series in batch.Series)
        {
            w.WriteStartObject();
            w.WriteString("process", series.Process);
            w.WriteString("timeSource", series.TimeSource);
            if (series.Span is { } span)
                w.WriteNumber("spanSeconds", Math.Round(span.TotalSeconds, 3));
            w.WriteStartArray("dumps");
            foreach (SeriesDump d in series.Dumps)
            {
                w.WriteStartObject();
                w.WriteString("name", d.Name);
                if (d.Time is { } t)
                    w.WriteString("time", t.ToUniversalTime());
                w.WriteBoolean("compared", d.Analysed);
                w.WriteEndObject();
            }
            w.WriteEndArray();
            Strings(w, "problems", series.Problems);
            w.WriteStartArray("findings");
            foreach (Finding f in series.Findings)
                json.ToElement(f).WriteTo(w);
            w.WriteEndArray();
            Strings(w, "moved", series.Moved);
            w.WriteStartArray("threads");
            foreach (SeriesThread t in series.Threads)
            {
                w.WriteStartObject();
                w.WriteNumber("osThreadId", t.OsThreadId);
                if (t.ManagedThreadId is int m)
                    w.WriteNumber("managedThreadId", m);
                w.WriteStartArray("waits");
                foreach (SeriesCell c in t.Cells)
                {
                    w.WriteStartObject();
                    if (c.Wait is null)
                        w.WriteNull("wait");
                    else
                        w.WriteString("wait", c.Wait);
                    if (c.Same is bool same)
                        w.WriteBoolean("sameAsBefore", same);
                    w.WriteEndObject();
                }
                w.WriteEndArray();
                w.WriteEndObject();
            }
            w.WriteEndArray();
            w.WriteEndObject();
        }
        w.WriteEndArray();
    }

    private static void Strings(Utf8JsonWriter w, string name, IReadOnlyList<string> values)
    {
        w.WriteStartArray(name);
        foreach (string v in values)
            w.WriteStringValue(v);
        w.WriteEndArray();
    }

    /// <summary>A shard's part: which shard, and the manifest all shards split (verbatim, so merge can name a missing shard's dumps).</summary>
    private static void WritePart(Utf8JsonWriter w, BatchPart part)
    {
        w.WriteStartObject("shard");
        w.WriteNumber("index", part.Index);
        w.WriteNumber("count", part.Count);
        w.WriteString("manifestHash", part.ManifestHash);
        w.WriteEndObject();
        w.WritePropertyName("manifest");
        w.WriteRawValue(part.Manifest);
    }

    /// <param name="part">
    /// A shard's part also carries each dump's content hash (when it was read) and its whole single-dump report, so
    /// 'diagext merge' reads it back with the one report reader (<see cref="ReportJson"/>) and loses nothing.
    /// </param>
    private void WriteDump(Utf8JsonWriter w, DumpResult dump, bool part)
    {
        w.WriteStartObject();
        w.WriteString("name", dump.Name);
        w.WriteString("status", JsonNamingPolicy.CamelCase.ConvertName(dump.Status.ToString()));
        if (dump.Error is not null)
            w.WriteString("error", dump.Error);
        if (dump.SameContentAs is not null)
            w.WriteString("sameContentAs", dump.SameContentAs);
        if (dump.SizeBytes is long size)
            w.WriteNumber("sizeBytes", size);
        w.WriteNumber("elapsedMs", Math.Round(dump.Elapsed.TotalMilliseconds, 1));
        if (dump.PeakMemoryBytes is long peak)
            w.WriteNumber("peakMemoryMb", Math.Round(peak / (1024.0 * 1024), 1));
        w.WriteNumber("findingCount", dump.Findings.Count);
        // A busy process's chain that one dump cannot settle is a note: counted apart, as the totals do.
        w.WriteNumber("hazardCount", dump.Findings.Count(f => f.IsHazard));
        if (dump.Report is { } report)
        {
            // The analysis itself, without starting the analysing process: the difference is the price of isolation.
            ReportDocument document = ReportDocument.From(report);
            w.WriteNumber("analysisMs", document.ElapsedMs);
            Property(w, "target", document.Target);
            Property(w, "scan", document.Scan);
            Property(w, "detectors", document.Detectors);
            Property(w, "heapObjects", document.HeapObjects);
            if (part && dump.SameContentAs is null)
                Property(w, "report", document);
        }
        if (part && dump.ContentHash is not null)
            w.WriteString("contentHash", dump.ContentHash);
        w.WriteEndObject();
    }

    private void Property<T>(Utf8JsonWriter w, string name, T? value)
    {
        if (value is null)
            return;
        w.WritePropertyName(name);
        JsonSerializer.Serialize(w, value, json.TypeInfo<T>());
    }
}
