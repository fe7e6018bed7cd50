using DiagExt.Tests.Infrastructure;
using DiagExt.Core;
using DiagExt.Core.Errors;
using DiagExt.Core.Rendering.Batch;
using DiagExt.Core.Reports;
using DiagExt.Core.Targets;

namespace DiagExt.Tests.Batch;

/// <summary>How a batch adds up its dumps: exit code, information findings, duplicates, failures.</summary>
[TestFixture]
[Category(TestKind.Unit), Parallelizable(ParallelScope.Fixtures)]
public class BatchReportTests
{
    private sealed record ProbeFinding(FindingSeverity Level) : Finding
    {
        public override string Detector => "x";

        public override FindingSeverity Severity => Level;
    }

    private static readonly TargetSummary Target = new("t.dmp", TargetKind.WindowsMinidump, "WINDOWS", "x64", null, 1, RuntimeStatus.NotPresent, null, null);

    private static DumpResult Analysed(string name, params FindingSeverity[] severities) => WithOutcomes(name,
        new DetectorOutcome("x", DetectorStatus.Ran, null, severities.Select(s => new ProbeFinding(s) { Kind = "k", Title = "t", Summary = "s" }).ToList(), TimeSpan.Zero));

    private static DumpResult WithOutcomes(string name, params DetectorOutcome[] outcomes) =>
        new() { Name = name, Status = DumpStatus.Analysed, Report = new AnalysisReport(Target, outcomes, null, TimeSpan.Zero) };

    private static DumpResult Failed(string name) => new() { Name = name, Status = DumpStatus.Failed, Error = "truncated" };

    private static BatchReport Batch(params DumpResult[] dumps) => new(["in"], dumps, [], 2, TimeSpan.FromSeconds(1), false);

    [Test]
    public void Information_findings_alone_do_not_make_exit_code_1()
    {
        BatchReport batch = Batch(Analysed("a", FindingSeverity.Information), Failed("b"));
        Assert.That(batch.ExitCode, Is.EqualTo(ExitCode.NothingFound));
        Assert.That(BatchWords.Result(batch.Dumps[0]), Is.EqualTo("no hazard, 1 note"));
        Assert.That(BatchTextRenderer.Totals(batch), Does.Contain("no hazard found, 1 note (x: 1)"));
    }

    [TestCase(FindingSeverity.Hazard)]
    [TestCase(FindingSeverity.Warning)]
    public void A_hazard_or_warning_anywhere_makes_exit_code_1(FindingSeverity severity)
    {
        BatchReport batch = Batch(Analysed("a"), Analysed("b", severity, FindingSeverity.Information), Failed("c"));
        Assert.That(batch.ExitCode, Is.EqualTo(ExitCode.HazardsFound));
        Assert.That(BatchWords.Result(batch.Dumps[1]), Is.EqualTo("1 finding, 1 note"));
        Assert.That(BatchTextRenderer.Totals(batch), Does.Contain("1 finding, 1 note (x: 2)"));
    }

    [Test]
    public void Exit_code_2_when_nothing_could_be_analysed_and_130_when_the_batch_was_cancelled()
    {
        Assert.That(Batch(Failed("a"), Failed("b")).ExitCode, Is.EqualTo(ExitCode.InputError));
        Assert.That((Batch(Analysed("a", FindingSeverity.Hazard)) with { Cancelled = true }).ExitCode, Is.EqualTo(ExitCode.Cancelled));
    }

    [Test]
    public void A_duplicate_counts_once_and_its_findings_are_listed_once()
    {
        DumpResult original = Analysed("a", FindingSeverity.Hazard);
        BatchReport batch = Batch(original, original with { Name = "a-copy", SameContentAs = "a" }, Failed("b"), Failed("b-copy") with { SameContentAs = "b" });
        Assert.That(batch.Findings, Has.Count.EqualTo(1));
        Assert.That(batch.Findings[0].AlsoIn, Is.EqualTo(new[] { "a-copy" }));
        Assert.That((batch.Analysed, batch.Failed, batch.Duplicates), Is.EqualTo((1, 1, 2)));
    }

    [Test]
    public void What_a_detector_says_besides_findings_is_listed_as_a_note()
    {
        BatchReport batch = Batch(WithOutcomes("w.dmp",
            new DetectorOutcome("y", DetectorStatus.Ran, "lock is free", [], TimeSpan.Zero),
            new DetectorOutcome("x", DetectorStatus.Skipped, "needs .NET", [], TimeSpan.Zero)));
        var text = new StringWriter();
        BatchTextRenderer.Render(batch, text);
        Assert.That(text.ToString(), Does.Contain("notes:\n  w.dmp: y: lock is free".Replace("\n", Environment.NewLine)));
        Assert.That(text.ToString(), Does.Not.Contain("needs .NET"), "a skipped detector's reason is not a note");
        Assert.That(BatchWords.DetectorCell(batch.Dumps[0], "x"), Is.EqualTo("-"));
    }

    [Test]
    public void A_detector_that_does_not_apply_is_a_skipped_cell_with_its_reason_not_a_note()
    {
        BatchReport batch = Batch(WithOutcomes("w.dmp", DetectorOutcome.NotApplicable("x", "no <WCF> client")));
        var html = new StringWriter();
        BatchHtmlRenderer.Render(batch, html, DiagExt.Core.Catalog.DetectorCatalog.Json);
        Assert.That(BatchWords.DetectorCell(batch.Dumps[0], "x"), Is.EqualTo("-"));
        Assert.That(BatchWords.Notes(batch.Dumps[0]), Is.Empty);
        Assert.That(html.ToString(), Does.Contain("<td class=\"num\" title=\"skipped: no &lt;WCF&gt; client\">-</td>"));
        Assert.That(html.ToString(), Does.Not.Contain("x: no"), "no note column entry");
        Assert.That(batch.Dumps[0].Report!.AllSkipped, Is.False, "does not apply is an answer: not 'nothing could be analysed'");
    }
}
