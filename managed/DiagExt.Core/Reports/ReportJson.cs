using DiagExt.Core.Catalog;
using System.Text.Encodings.Web;
using System.Text.Json;
using System.Text.Json.Serialization;
using System.Text.Json.Serialization.Metadata;
using DiagExt.Core.Rendering;

namespace DiagExt.Core.Reports;

/// <summary>
/// The one JSON form of a report: written by <c>--json</c> (one object with a "findings" array, each finding with
/// the common fields plus its detector's own), and read back into the same records by a batch from each of its
/// analysing processes. Writer and reader share <see cref="ReportDocument"/>, so the two cannot drift apart.
/// Contracts are source-generated: the report's own in <see cref="ReportJsonContext"/>, each finding record's in
/// its detector's folder, handed in as <see cref="FindingContract"/>s (Analysis/DetectorCatalog.Json holds the
/// instance with every detector), so this layer knows no detector.
/// </summary>
public sealed class ReportJson
{
    public const int SchemaVersion = 1;

    private readonly Dictionary<string, Type> _findingTypes;

    public ReportJson(IEnumerable<FindingContract> findings)
    {
        FindingContract[] contracts = findings.ToArray();
        _findingTypes = contracts.ToDictionary(c => c.Detector, c => c.FindingType, StringComparer.Ordinal);
        Options = CreateOptions(contracts, this);
    }

    public JsonSerializerOptions Options { get; }

    public void Write(AnalysisReport report, TextWriter output) =>
        output.WriteLine(JsonSerializer.Serialize(ReportDocument.From(report), TypeInfo<ReportDocument>()));

    /// <summary>A report as <see cref="Write"/> wrote it; <see cref="JsonException"/> if it is not one.</summary>
    public AnalysisReport Read(string json)
    {
        try
        {
            ReportDocument document = JsonSerializer.Deserialize(json, TypeInfo<ReportDocument>()) ?? throw new JsonException("null instead of a report");
            return document.ToReport();
        }
        catch (Exception e) when (e is NotSupportedException or InvalidOperationException or ArgumentException)
        {
            throw new JsonException(e.Message, e);
        }
    }

    /// <summary>One finding as JSON, with its detector's own fields: the batch's JSON and HTML show them.</summary>
    public JsonElement ToElement(Finding finding) => JsonSerializer.SerializeToElement(finding, TypeInfo<Finding>());

    /// <summary>The contract of a type the contexts list (or reach), with <see cref="Options"/>.</summary>
    internal JsonTypeInfo<T> TypeInfo<T>() => (JsonTypeInfo<T>)Options.GetTypeInfo(typeof(T));

    private static JsonSerializerOptions CreateOptions(IEnumerable<FindingContract> findings, ReportJson json)
    {
        var options = new JsonSerializerOptions
        {
            PropertyNamingPolicy = JsonNamingPolicy.CamelCase,
            WriteIndented = true,
            DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull,
            // Target strings stay escaped (\u003c...), so the JSON is safe to paste into HTML too.
            Encoder = JavaScriptEncoder.Default,
            // A child's report is trusted no more than its dump: bounded nesting.
            MaxDepth = 32,
            TypeInfoResolver = JsonTypeInfoResolver.Combine([ReportJsonContext.Default, .. findings.Select(f => f.Resolver)]),
        };
        options.Converters.Add(new MarkupAsTextConverter());
        options.Converters.Add(new FindingJsonConverter(json._findingTypes));
        // Every enum a report holds, by name: a new one needs its line here (or a converter on its property).
        options.Converters.Add(new CamelCaseEnumConverter<FindingSeverity>());
        options.Converters.Add(new CamelCaseEnumConverter<DetectorStatus>());
        options.MakeReadOnly();
        return options;
    }

    /// <summary>Evidence lines become plain strings in JSON, and come back as one text piece.</summary>
    private sealed class MarkupAsTextConverter : JsonConverter<Markup>
    {
        public override Markup Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options) =>
            Markup.Text(reader.GetString() ?? "");

        public override void Write(Utf8JsonWriter writer, Markup value, JsonSerializerOptions options) =>
            writer.WriteStringValue(value.ToPlainText());
    }

    /// <summary>
    /// A finding is written as its own record type; read back as the record of the detector its "detector" field
    /// names (one of the <see cref="FindingContract"/>s), so a new detector needs no line here.
    /// </summary>
    private sealed class FindingJsonConverter(IReadOnlyDictionary<string, Type> types) : JsonConverter<Finding>
    {
        public override Finding Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options)
        {
            using JsonDocument document = JsonDocument.ParseValue(ref reader);
            JsonElement element = document.RootElement;
            if (element.ValueKind != JsonValueKind.Object || !element.TryGetProperty("detector", out JsonElement detector) || detector.ValueKind != JsonValueKind.String)
                throw new JsonException("a finding without a \"detector\"");
            string name = detector.GetString()!;
            Type type = types.GetValueOrDefault(name) ?? throw new JsonException($"a finding of an unknown detector '{name}'");
            return (Finding?)element.Deserialize(options.GetTypeInfo(type)) ?? throw new JsonException("null instead of a finding");
        }

        public override void Write(Utf8JsonWriter writer, Finding value, JsonSerializerOptions options) =>
            JsonSerializer.Serialize(writer, value, options.GetTypeInfo(value.GetType()));
    }
}
