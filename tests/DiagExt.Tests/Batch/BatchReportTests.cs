using System.Text.Json;
using DiagExt.Core.Batch;
using DiagExt.Core.Errors;
using DiagExt.Core.Rendering.Batch;

namespace DiagExt.Tests.Batch;

/// <summary>How a batch adds up its dumps: exit code, information findings, duplicates, failures.</summary>
[TestFixture]
public class BatchReportTests
{
    private static DumpResult Analysed(string name, params string[] severities)
    {
        var findings = severities.Select(s => new Dictionary<string, object?> { ["detector"] = "x", ["kind"] = "k", ["title"] = "t", ["summary"] = "s", ["severity"] = s == "" ? null : s });
        JsonElement report = JsonSerializer.SerializeToElement(new { findings, detectors = new[] { new { name = "x", status = "ran", findings = severities.Length } } });
        return new DumpResult { Name = name, Status = DumpStatus.Analysed, Report = report };
    }

    private static DumpResult Failed(string name) => new() { Name = name, Status = DumpStatus.Failed, Error = "truncated" };

    private static BatchReport Batch(params DumpResult[] dumps) => new(["in"], dumps, [], 2, TimeSpan.FromSeconds(1), false);

    [Test]
    public void Information_findings_alone_do_not_make_exit_code_1()
    {
        BatchReport batch = Batch(Analysed("a", "information"), Failed("b"));
        Assert.That(batch.ExitCode, Is.EqualTo(ExitCode.NothingFound));
        Assert.That(ReportView.Result(batch.Dumps[0]), Is.EqualTo("no hazard, 1 note"));
        Assert.That(BatchTextRenderer.Totals(batch), Does.Contain("no hazard found (1 note: x: 1)"));
    }

    [TestCase("hazard")]
    [TestCase("warning")]
    [TestCase("")]
    public void A_hazard_or_warning_anywhere_makes_exit_code_1(string severity)
    {
        BatchReport batch = Batch(Analysed("a"), Analysed("b", severity, "information"), Failed("c"));
        Assert.That(batch.ExitCode, Is.EqualTo(ExitCode.HazardsFound));
        Assert.That(ReportView.Result(batch.Dumps[1]), Is.EqualTo("1 finding (+1 note)"));
    }

    [Test]
    public void Exit_code_2_when_nothing_could_be_analysed_and_130_when_the_batch_was_cancelled()
    {
        Assert.That(Batch(Failed("a"), Failed("b")).ExitCode, Is.EqualTo(ExitCode.InputError));
        Assert.That((Batch(Analysed("a", "hazard")) with { Cancelled = true }).ExitCode, Is.EqualTo(ExitCode.Cancelled));
    }

    [Test]
    public void A_duplicate_counts_once_and_its_findings_are_listed_once()
    {
        DumpResult original = Analysed("a", "hazard");
        BatchReport batch = Batch(original, original with { Name = "a-copy", SameContentAs = "a" }, Failed("b"), Failed("b-copy") with { SameContentAs = "b" });
        Assert.That(batch.Findings, Has.Count.EqualTo(1));
        Assert.That(batch.Findings[0].AlsoIn, Is.EqualTo(new[] { "a-copy" }));
        Assert.That((batch.Analysed, batch.Failed, batch.Duplicates), Is.EqualTo((1, 1, 2)));
    }

    [Test]
    public void What_a_detector_says_besides_findings_is_listed_as_a_note()
    {
        JsonElement report = JsonSerializer.SerializeToElement(new
        {
            findings = Array.Empty<object>(),
            detectors = new[] { new { name = "y", status = "ran", findings = 0, reason = "lock is free" }, new { name = "x", status = "skipped", findings = 0, reason = "needs .NET" } },
        });
        BatchReport batch = Batch(new DumpResult { Name = "w.dmp", Status = DumpStatus.Analysed, Report = report });
        var text = new StringWriter();
        BatchTextRenderer.Render(batch, text);
        Assert.That(text.ToString(), Does.Contain("notes:\n  w.dmp: y: lock is free".Replace("\n", Environment.NewLine)));
        Assert.That(text.ToString(), Does.Not.Contain("needs .NET"), "a skipped detector's reason is not a note");
        Assert.That(ReportView.DetectorCell(batch.Dumps[0], "x"), Is.EqualTo("-"));
    }
}
