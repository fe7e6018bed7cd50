using System.Globalization;
using System.Text.Json;
using DiagExt.Core.Batch;

namespace DiagExt.Core.Rendering.Batch;

/// <summary>
/// Reads the fields batch renderers show from a dump's single-dump JSON report. Detector-agnostic: it knows
/// the common fields of every report and finding, and passes any other field through as it is.
/// </summary>
public static class ReportView
{
    public static string Runtime(DumpResult dump)
    {
        if (dump.Report is not { } report || !report.TryGetProperty("target", out JsonElement target) || !target.TryGetProperty("runtime", out JsonElement runtime))
            return "";
        string availability = Text(runtime, "availability").ToLowerInvariant();
        string name = $"{Text(runtime, "flavor")} {Text(runtime, "version")}".Trim();
        return availability switch
        {
            "loaded" => name,
            "notpresent" => "none",
            _ => name.Length == 0 ? "unusable" : $"{name} (unusable here)",
        };
    }

    public static int? Threads(DumpResult dump) =>
        dump.Report is { } r && r.TryGetProperty("target", out JsonElement t) && t.TryGetProperty("threads", out JsonElement n) && n.TryGetInt32(out int v) ? v : null;

    /// <summary>Each detector the dump's report lists: its status and its number of findings.</summary>
    public static IReadOnlyList<(string Name, string Status, int Findings, string? Reason)> Detectors(DumpResult dump)
    {
        if (dump.Report is not { } report || !report.TryGetProperty("detectors", out JsonElement detectors) || detectors.ValueKind != JsonValueKind.Array)
            return [];
        return detectors.EnumerateArray()
            .Select(d => (Text(d, "name"), Text(d, "status"), d.TryGetProperty("findings", out JsonElement f) && f.TryGetInt32(out int n) ? n : 0, (string?)OptionalText(d, "reason")))
            .ToList();
    }

    /// <summary>What detectors that ran said besides findings ("loader lock ... is free", "PEB not captured"), as "detector: note".</summary>
    public static IReadOnlyList<string> Notes(DumpResult dump) =>
        Detectors(dump).Where(d => d.Status == "ran" && !string.IsNullOrEmpty(d.Reason)).Select(d => $"{d.Name}: {d.Reason}").ToList();

    /// <summary>Every detector named in any report of the batch, in first-seen order: the columns of a summary table.</summary>
    public static IReadOnlyList<string> DetectorColumns(BatchReport batch) =>
        batch.Dumps.SelectMany(d => Detectors(d).Select(x => x.Name)).Distinct().ToList();

    /// <summary>The cell for one detector of one dump: its count, "-" if skipped, "" if the dump has no report.</summary>
    public static string DetectorCell(DumpResult dump, string detector)
    {
        if (dump.Status != DumpStatus.Analysed)
            return "";
        var match = Detectors(dump).Where(d => d.Name == detector).ToList();
        if (match.Count == 0)
            return "";
        return match[0].Status == "ran" ? match[0].Findings.ToString(CultureInfo.InvariantCulture) : "-";
    }

    public static string Result(DumpResult dump) => dump.Status switch
    {
        DumpStatus.Analysed => Count(dump.Findings.Count(f => !BatchReport.IsInformation(f)), dump.Findings.Count(BatchReport.IsInformation)),
        DumpStatus.Failed => "error",
        DumpStatus.TimedOut => "timed out",
        DumpStatus.Crashed => "crashed",
        _ => "cancelled",
    };

    /// <summary>"1 finding", "2 findings", "no hazard", "no hazard, 1 note" (information findings are notes).</summary>
    private static string Count(int hazards, int notes)
    {
        string main = hazards switch { 0 => "no hazard", 1 => "1 finding", _ => $"{hazards} findings" };
        return notes == 0 ? main : hazards == 0 ? $"{main}, {notes} note{(notes == 1 ? "" : "s")}" : $"{main} (+{notes} note{(notes == 1 ? "" : "s")})";
    }

    public static string Seconds(TimeSpan elapsed) => string.Format(CultureInfo.InvariantCulture, "{0:0.0}s", elapsed.TotalSeconds);

    public static string Size(long? bytes) => bytes switch
    {
        null => "",
        < 1024 * 1024 => string.Format(CultureInfo.InvariantCulture, "{0:0.#} KB", bytes / 1024.0),
        < 1024L * 1024 * 1024 => string.Format(CultureInfo.InvariantCulture, "{0:0.#} MB", bytes / (1024.0 * 1024)),
        _ => string.Format(CultureInfo.InvariantCulture, "{0:0.##} GB", bytes / (1024.0 * 1024 * 1024)),
    };

    public static string Text(JsonElement element, string property) => OptionalText(element, property) ?? "";

    public static string? OptionalText(JsonElement element, string property) =>
        element.ValueKind == JsonValueKind.Object && element.TryGetProperty(property, out JsonElement value)
            ? value.ValueKind switch
            {
                JsonValueKind.String => value.GetString(),
                JsonValueKind.Null or JsonValueKind.Undefined => null,
                _ => value.GetRawText(),
            }
            : null;
}
