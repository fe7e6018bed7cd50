using System.Globalization;
using System.Text.Json;

namespace DiagExt.Core.Rendering.Batch;

/// <summary>One thread of a finding, as its JSON has it.</summary>
public sealed record ThreadView(string OsThreadId, string? ManagedThreadId, string Role, string? Frame, string? CallerFrame, string? Cpu, IReadOnlyList<string> Stack);

/// <summary>
/// A finding read back from a report's JSON: the fields every finding has, plus the detector's own fields
/// as name/value text. Every string here may come from the target: renderers escape it.
/// </summary>
public sealed record FindingView(
    string Severity,
    string Detector,
    string Kind,
    string Title,
    string Summary,
    IReadOnlyList<string> Evidence,
    IReadOnlyList<ThreadView> Threads,
    string? Advice,
    IReadOnlyList<KeyValuePair<string, string>> Fields)
{
    private static readonly HashSet<string> Common = ["severity", "detector", "kind", "title", "summary", "evidence", "threads", "advice", "dump", "alsoIn"];

    public static FindingView From(JsonElement finding)
    {
        var evidence = Array(finding, "evidence").Select(e => e.ValueKind == JsonValueKind.String ? e.GetString() ?? "" : e.GetRawText()).ToList();
        var threads = Array(finding, "threads").Select(Thread).ToList();
        var fields = finding.ValueKind == JsonValueKind.Object
            ? finding.EnumerateObject().Where(p => !Common.Contains(p.Name))
                .Select(p => new KeyValuePair<string, string>(p.Name, p.Value.ValueKind == JsonValueKind.String ? p.Value.GetString() ?? "" : p.Value.GetRawText()))
                .ToList()
            : [];
        return new FindingView(
            ReportView.OptionalText(finding, "severity") ?? "hazard",
            ReportView.Text(finding, "detector"),
            ReportView.Text(finding, "kind"),
            ReportView.Text(finding, "title"),
            ReportView.Text(finding, "summary"),
            evidence,
            threads,
            ReportView.OptionalText(finding, "advice"),
            fields);
    }

    private static ThreadView Thread(JsonElement t)
    {
        string id = t.TryGetProperty("osThreadId", out JsonElement os) && os.TryGetUInt32(out uint tid) ? $"0x{tid:x}" : ReportView.Text(t, "osThreadId");
        string? cpu = null;
        if (t.TryGetProperty("userCpuSeconds", out JsonElement user) && user.TryGetDouble(out double u))
        {
            double k = t.TryGetProperty("kernelCpuSeconds", out JsonElement kernel) && kernel.TryGetDouble(out double kv) ? kv : 0;
            cpu = string.Format(CultureInfo.InvariantCulture, "user {0:0.000}s, kernel {1:0.000}s", u, k);
        }
        var stack = Array(t, "stack").Select(f => f.ValueKind == JsonValueKind.String ? f.GetString() ?? "" : f.GetRawText()).ToList();
        return new ThreadView(id, ReportView.OptionalText(t, "managedThreadId"), ReportView.Text(t, "role"), ReportView.OptionalText(t, "frame"), ReportView.OptionalText(t, "callerFrame"), cpu, stack);
    }

    private static IEnumerable<JsonElement> Array(JsonElement element, string property) =>
        element.ValueKind == JsonValueKind.Object && element.TryGetProperty(property, out JsonElement value) && value.ValueKind == JsonValueKind.Array
            ? value.EnumerateArray()
            : [];
}
