using System.Text.Json;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.DictCycle;

/// <summary>
/// The .NET Core 3.1 build of samples/DictShapes (self-contained; its runtime pack restores here), dumped by
/// 3.1's own createdump and analysed with 3.1's DAC: the 3.x Dictionary and the legacy slots HashSet
/// (_slots, _lastIndex, plain free list). The sample also measures what a lookup on the loop does on 3.1.
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class LegacyLayoutTests
{
    private static readonly Lazy<(DumpMaker.SampleDump Dump, JsonElement[] Findings)> Core31 = new(() =>
    {
        DumpMaker.SampleDump dump = DumpMaker.DumpOfSampleWithOutput("DictShapes", "netcoreapp3.1", "dictshapes-core31-corrupt.core", "corrupt");
        Diagext.Result result = Diagext.Run("dictcycle", dump.Path, "--json");
        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stderr);
        return (dump, result.Findings.ToArray());
    });

    public static IEnumerable<ShapeExpectation> Expectations() => ShapeExpectation.Parse(Core31.Value.Dump.Output);

    [TestCaseSource(nameof(Expectations))]
    public void Core31_corruption_is_reported_with_exact_indices(ShapeExpectation expected) =>
        expected.AssertReportedIn(Core31.Value.Findings);

    [Test]
    public void Layouts_are_recognised_and_the_verdict_matches_what_the_runtime_did()
    {
        JsonElement set = ShapeExpectation.FindingOf(Core31.Value.Findings, "LegacyProgram.HashSetSelfCycle");
        JsonElement dictionary = ShapeExpectation.FindingOf(Core31.Value.Findings, "LegacyProgram.DictionarySelfCycle");
        Assert.That(set.GetProperty("layout").GetString(), Is.EqualTo(".NET Core 2.x/3.x HashSet"));
        Assert.That(dictionary.GetProperty("layout").GetString(), Does.Contain(".NET Core 3.0+"));

        // The sample ran a lookup into each loop on 3.1 and printed what happened.
        string output = Core31.Value.Dump.Output;
        Assert.That(output, Does.Contain("LOOKUP HashSet throws InvalidOperationException"));
        Assert.That(output, Does.Contain("LOOKUP Dictionary throws InvalidOperationException"));
        Assert.That(set.GetProperty("verdict").GetString(), Is.EqualTo("lookups throw InvalidOperationException"));
        Assert.That(dictionary.GetProperty("verdict").GetString(), Is.EqualTo("lookups throw InvalidOperationException"));
    }

    [Test]
    public void Healthy_core31_tables_give_nothing()
    {
        string dump = DumpMaker.DumpOfSampleWithOutput("DictShapes", "netcoreapp3.1", "dictshapes-core31-healthy.core", "healthy").Path;
        Diagext.Result result = Diagext.Run("dictcycle", dump, "--json");
        Assert.That(result.ExitCode, Is.EqualTo(0), result.Stdout);
        Assert.That(result.Findings, Is.Empty);
    }
}
