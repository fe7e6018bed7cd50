using System.Text.Json;

namespace DiagExt.Core.Reports;

/// <summary>
/// Reads one shard's part (the batch JSON that 'diagext analyze --shard I/N --json FILE' writes) back into a
/// <see cref="BatchReport"/> with its <see cref="BatchPart"/>. Each analysed dump's report goes through the one report
/// reader (<see cref="ReportJson"/>); the batch's own fields are read here. A part is trusted no more than a dump:
/// anything missing or of the wrong type is a <see cref="JsonException"/>, never a crash.
/// </summary>
public static class BatchPartJson
{
    public static BatchReport Read(ReportJson json, string text)
    {
        try
        {
            using JsonDocument document = JsonDocument.Parse(text, new JsonDocumentOptions { MaxDepth = 64 });
            JsonElement root = document.RootElement;
            if (root.ValueKind != JsonValueKind.Object || Str(root, "kind") != "batch")
                throw new JsonException("not a diagext batch report");
            if (!root.TryGetProperty("shard", out JsonElement shard) || !root.TryGetProperty("manifest", out JsonElement manifest))
                throw new JsonException("a batch report, but not a shard's part (no \"shard\" and \"manifest\")");
            var part = new BatchPart(Int(shard, "index"), Int(shard, "count"), Str(shard, "manifestHash") ?? throw Missing("shard.manifestHash"), manifest.GetRawText());
            return new BatchReport(
                Array(root, "inputs").Select(e => e.GetString() ?? "").ToList(),
                Array(root, "dumps").Select(d => Dump(json, d)).ToList(),
                Array(root, "skipped").Select(s => new SkippedFile(Str(s, "name") ?? "", Str(s, "reason") ?? "")).ToList(),
                Int(root, "jobs"),
                TimeSpan.FromMilliseconds(Number(root, "elapsedMs")),
                root.TryGetProperty("cancelled", out JsonElement c) && c.ValueKind == JsonValueKind.True)
            {
                Part = part,
            };
        }
        catch (Exception e) when (e is InvalidOperationException or FormatException or ArgumentException or KeyNotFoundException)
        {
            throw new JsonException(e.Message, e);
        }
    }

    private static DumpResult Dump(ReportJson json, JsonElement d)
    {
        string status = Str(d, "status") ?? throw Missing("dumps[].status");
        if (!Enum.TryParse(status, ignoreCase: true, out DumpStatus parsed) || !Enum.IsDefined(parsed) || int.TryParse(status, out _))
            throw new JsonException($"a dump of unknown status '{status}'");
        return new DumpResult
        {
            Name = Str(d, "name") ?? throw Missing("dumps[].name"),
            Status = parsed,
            Error = Str(d, "error"),
            Report = d.TryGetProperty("report", out JsonElement report) ? json.Read(report.GetRawText()) : null,
            SizeBytes = d.TryGetProperty("sizeBytes", out JsonElement size) ? size.GetInt64() : null,
            Elapsed = TimeSpan.FromMilliseconds(Number(d, "elapsedMs")),
            PeakMemoryBytes = d.TryGetProperty("peakMemoryMb", out JsonElement peak) ? (long)(peak.GetDouble() * 1024 * 1024) : null,
            SameContentAs = Str(d, "sameContentAs"),
            ContentHash = Str(d, "contentHash"),
        };
    }

    private static JsonException Missing(string name) => new($"no \"{name}\"");

    private static string? Str(JsonElement e, string name) =>
        e.ValueKind == JsonValueKind.Object && e.TryGetProperty(name, out JsonElement v) && v.ValueKind == JsonValueKind.String ? v.GetString() : null;

    private static int Int(JsonElement e, string name) =>
        e.ValueKind == JsonValueKind.Object && e.TryGetProperty(name, out JsonElement v) && v.TryGetInt32(out int i) ? i : throw Missing(name);

    private static double Number(JsonElement e, string name) =>
        e.TryGetProperty(name, out JsonElement v) && v.TryGetDouble(out double d) ? d : throw Missing(name);

    private static JsonElement.ArrayEnumerator Array(JsonElement e, string name) =>
        e.TryGetProperty(name, out JsonElement v) && v.ValueKind == JsonValueKind.Array ? v.EnumerateArray() : throw Missing(name);
}
