using System.Text.Json;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.DictCycle;

/// <summary>
/// samples/DictShapes builds each corruption class exactly (reflection on the private arrays) and says which
/// indices and buckets are bad; a dump of it must give those, and its healthy instances must give nothing.
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class DictShapesTests
{
    private static readonly Lazy<(JsonElement[] Findings, ShapeExpectation[] Expected)> Corrupt = new(() =>
    {
        DumpMaker.SampleDump dump = DumpMaker.DumpOfSampleWithOutput("DictShapes", "net10.0", "dictshapes-corrupt.core", "corrupt");
        Diagext.Result result = Diagext.Run("dictcycle", dump.Path, "--json");
        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stderr);
        return (result.Findings.ToArray(), ShapeExpectation.Parse(dump.Output));
    });

    public static IEnumerable<ShapeExpectation> Expectations() => Corrupt.Value.Expected;

    [TestCaseSource(nameof(Expectations))]
    public void Each_corruption_class_is_reported_with_its_exact_indices_and_buckets(ShapeExpectation expected) =>
        expected.AssertReportedIn(Corrupt.Value.Findings);

    [Test]
    public void Every_corrupt_instance_and_nothing_else_is_reported() =>
        Assert.That(ShapeExpectation.Holders(Corrupt.Value.Findings), Is.EqualTo(Corrupt.Value.Expected.Select(e => e.Holder).Distinct().Order().ToArray()));

    [Test]
    public void Finding_names_type_layout_sizes_and_the_verdict_of_this_runtime()
    {
        JsonElement finding = ShapeExpectation.FindingOf(Corrupt.Value.Findings, "Corrupt.SelfCycle");
        Assert.That(finding.GetProperty("kind").GetString(), Is.EqualTo("self-cycle"));
        Assert.That(finding.GetProperty("type").GetString(), Is.EqualTo("System.Collections.Generic.Dictionary<System.String, System.Int32>"));
        Assert.That(finding.GetProperty("layout").GetString(), Does.Contain(".NET 5+"));
        Assert.That(finding.GetProperty("count").GetInt32(), Is.EqualTo(4));
        Assert.That(finding.GetProperty("verdict").GetString(), Is.EqualTo("lookups throw InvalidOperationException"));
        Assert.That(finding.GetProperty("address").GetString(), Does.Match("^0x[0-9a-f]+$"));
        Assert.That(finding.GetProperty("summary").GetString(), Does.Contain("entries[1].next == 1"));

        JsonElement derived = ShapeExpectation.FindingOf(Corrupt.Value.Findings, "Corrupt.DerivedSelfCycle");
        Assert.That(derived.GetProperty("type").GetString(), Is.EqualTo("System.Collections.Generic.Dictionary<System.String, System.Int32>"));
        Assert.That(ShapeExpectation.FindingOf(Corrupt.Value.Findings, "Corrupt.HashSetSelfCycle").GetProperty("layout").GetString(), Is.EqualTo(".NET 5+ HashSet"));
    }

    [Test]
    public void Healthy_instances_of_every_shape_give_no_finding_and_exit_0()
    {
        string dump = DumpMaker.DumpOfSampleWithOutput("DictShapes", "net10.0", "dictshapes-healthy.core", "healthy").Path;

        Diagext.Result result = Diagext.Run("dictcycle", dump, "--json");

        Assert.That(result.ExitCode, Is.EqualTo(0), result.Stdout);
        Assert.That(result.Findings, Is.Empty);
        Assert.That(result.Json.GetProperty("detectors")[0].GetProperty("status").GetString(), Is.EqualTo("ran"));
    }
}
