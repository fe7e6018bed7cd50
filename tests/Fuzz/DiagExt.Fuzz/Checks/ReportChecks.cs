using DiagExt.Core.Catalog;
using System.Text.Json;
using DiagExt.Core.Analysis;
using DiagExt.Core.Rendering;
using DiagExt.Core.Reports;
using DiagExt.Fuzz.Engine;

namespace DiagExt.Fuzz.Checks;

/// <summary>
/// Renders a report the three ways the CLI does and checks each: the JSON parses and has the documented shape, the
/// DML holds no markup from the target, the text holds no control or bidi character.
/// </summary>
public static class ReportChecks
{
    public static void Check(AnalysisReport report)
    {
        CheckJson(Render(w => DetectorCatalog.Json.Write(report, w)), report.Findings.Count());
        DmlValidator.Check(Render(w => new ConsoleReportRenderer(new DmlStyle()).Render(report, w)));
        string text = Render(w => new ConsoleReportRenderer(new PlainStyle()).Render(report, w));
        if (UnsafeCharacters.FirstUnsafe(text) is { } bad)
            throw new PropertyViolation($"text output holds raw character U+{(int)bad.Char:X4}: '{UnsafeCharacters.Around(text, bad.Index)}'");
    }

    private static string Render(Action<TextWriter> render)
    {
        var writer = new StringWriter();
        render(writer);
        return writer.ToString();
    }

    private static void CheckJson(string json, int findingCount)
    {
        JsonElement root;
        try
        {
            root = JsonDocument.Parse(json).RootElement;
        }
        catch (JsonException e)
        {
            throw new PropertyViolation($"JSON output does not parse: {e.Message}");
        }
        if (!root.TryGetProperty("findings", out JsonElement findings) || findings.ValueKind != JsonValueKind.Array || findings.GetArrayLength() != findingCount)
            throw new PropertyViolation("JSON output has no findings array with every finding");
        foreach (JsonElement finding in findings.EnumerateArray())
        {
            foreach (string name in new[] { "detector", "kind", "title", "summary" })
                if (!finding.TryGetProperty(name, out JsonElement value) || value.ValueKind != JsonValueKind.String)
                    throw new PropertyViolation($"a JSON finding has no string '{name}'");
            if (!finding.TryGetProperty("threads", out JsonElement threads) || threads.ValueKind != JsonValueKind.Array)
                throw new PropertyViolation("a JSON finding has no threads array");
            foreach (JsonElement thread in threads.EnumerateArray())
                if (!thread.TryGetProperty("osThreadId", out JsonElement id) || id.ValueKind != JsonValueKind.Number)
                    throw new PropertyViolation("a JSON thread has no numeric osThreadId");
        }
    }
}
