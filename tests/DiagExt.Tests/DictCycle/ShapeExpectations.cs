using System.Text.Json;

namespace DiagExt.Tests.DictCycle;

/// <summary>
/// What samples/DictShapes says diagext must report ("EXPECT {json}" lines), and the check that a finding
/// reports it: the defect class, its exact entry indices and the buckets whose chains run into it.
/// </summary>
public sealed record ShapeExpectation(string Holder, string Kind, int[] Indices, int[] Buckets)
{
    public override string ToString() => $"{Holder} {Kind}";

    public static ShapeExpectation[] Parse(string sampleOutput) => sampleOutput.Split('\n')
        .Where(l => l.StartsWith("EXPECT ", StringComparison.Ordinal))
        .Select(l => JsonSerializer.Deserialize<ShapeExpectation>(l["EXPECT ".Length..], new JsonSerializerOptions { PropertyNameCaseInsensitive = true })!)
        .ToArray();

    public static JsonElement FindingOf(IEnumerable<JsonElement> findings, string holder) =>
        findings.Single(f => f.TryGetProperty("holder", out JsonElement h) && h.GetString() == holder);

    public void AssertReportedIn(IEnumerable<JsonElement> findings)
    {
        JsonElement finding = FindingOf(findings, Holder);
        JsonElement defect = finding.GetProperty("defects").EnumerateArray().SingleOrDefault(d => d.GetProperty("kind").GetString() == Kind);
        Assert.That(defect.ValueKind, Is.EqualTo(JsonValueKind.Object), $"no {Kind} in {finding.GetProperty("defects")}");
        Assert.That(Ints(defect, "indices"), Is.EqualTo(Indices));
        if (Buckets.Length > 0)
            Assert.That(Ints(defect, "buckets"), Is.EqualTo(Buckets));
        Assert.That(Ints(finding, "badIndices"), Is.SupersetOf(Indices));
    }

    public static string[] Holders(IEnumerable<JsonElement> findings) =>
        findings.Select(f => f.TryGetProperty("holder", out JsonElement h) ? h.GetString()! : "(no holder)").Order().ToArray();

    private static int[] Ints(JsonElement e, string name) => e.GetProperty(name).EnumerateArray().Select(i => i.GetInt32()).ToArray();
}
