using System.Text.Encodings.Web;
using System.Text.Json;
using System.Text.Json.Serialization;
using DiagExt.Core.Analysis;
using DiagExt.Core.Findings;

namespace DiagExt.Core.Rendering;

/// <summary>
/// Renders a report as one JSON object with a "findings" array. Each finding carries the common fields
/// (detector, kind, title, summary, threads with numeric osThreadId, evidence) plus its detector's own.
/// </summary>
public static class JsonReportRenderer
{
    public const int SchemaVersion = 1;

    public static JsonSerializerOptions Options { get; } = CreateOptions();

    public static void Render(AnalysisReport report, TextWriter output)
    {
        output.WriteLine(JsonSerializer.Serialize(ToDocument(report), Options));
    }

    /// <summary>The report as a plain object graph (batch reports embed it per dump).</summary>
    public static object ToDocument(AnalysisReport report) => new
    {
        schemaVersion = SchemaVersion,
        tool = new { name = "diagext", version = ToolVersion.Current },
        target = new
        {
            name = report.Target.Name,
            kind = report.Target.Kind.ToString(),
            platform = report.Target.Platform,
            architecture = report.Target.Architecture,
            processId = report.Target.ProcessId,
            threads = report.Target.ThreadCount,
            runtime = new
            {
                availability = report.Target.Runtime.Availability.ToString(),
                version = report.Target.Runtime.Version,
                flavor = report.Target.Runtime.Flavor,
                problem = report.Target.Runtime.Problem,
            },
            cpuTimeSource = report.Target.CpuTimeSource,
            cpuTimeUnavailable = report.Target.CpuTimeUnavailable,
        },
        findings = report.Findings.Cast<object>().ToList(),
        detectors = report.Outcomes.Select(o => new
        {
            name = o.Detector,
            status = o.Status.ToString().ToLowerInvariant(),
            reason = o.Reason,
            findings = o.Findings.Count,
            elapsedMs = Math.Round(o.Elapsed.TotalMilliseconds, 1),
        }).ToList(),
        heapObjects = report.HeapObjects,
        heapPass = report.HeapPass is { } pass ? new { elapsedMs = Math.Round(pass.Elapsed.TotalMilliseconds, 1), background = pass.Background } : null,
        startup = report.Startup is { } startup ? new { processStartMs = Math.Round(startup.ProcessStart.TotalMilliseconds, 1), openMs = Math.Round(startup.Open.TotalMilliseconds, 1) } : null,
        elapsedMs = Math.Round(report.Elapsed.TotalMilliseconds, 1),
    };

    private static JsonSerializerOptions CreateOptions()
    {
        var options = new JsonSerializerOptions
        {
            PropertyNamingPolicy = JsonNamingPolicy.CamelCase,
            WriteIndented = true,
            DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull,
            // Target strings stay escaped (\u003c...), so the JSON is safe to paste into HTML too.
            Encoder = JavaScriptEncoder.Default,
        };
        options.Converters.Add(new MarkupAsTextConverter());
        options.Converters.Add(new JsonStringEnumConverter(JsonNamingPolicy.CamelCase));
        return options;
    }

    /// <summary>Evidence lines become plain strings in JSON.</summary>
    private sealed class MarkupAsTextConverter : JsonConverter<Markup>
    {
        public override Markup Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options) =>
            Markup.Text(reader.GetString() ?? "");

        public override void Write(Utf8JsonWriter writer, Markup value, JsonSerializerOptions options) =>
            writer.WriteStringValue(value.ToPlainText());
    }
}
