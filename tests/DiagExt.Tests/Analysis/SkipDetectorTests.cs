using System.Text.Json;
using DiagExt.Core.Analysis;
using DiagExt.Core.Catalog;
using DiagExt.Core.Errors;
using DiagExt.Core.Reports;
using DiagExt.Core.Targets;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Analysis;

/// <summary>
/// 'analyze --skip' on the real dump of an async deadlock (samples/Hangs semaphore), where hang finds the deadlock:
/// a detector left out is listed as skipped, its findings are gone, the others' stand; its heap interest is not
/// registered (skip every detector with one and no heap pass runs at all); on one dump, through the isolation child,
/// on the live process and in a batch, whose children get the option.
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class SkipDetectorTests
{
    private const string Reason = "left out by --skip";

    private static string Dump => HangSample.Of("semaphore", 1).Path;

    private static AnalysisReport Analyse(string dump, params string[] skip)
    {
        using Target target = TargetOpener.OpenDump(dump);
        return Analyzer.Run(target, DetectorCatalog.CreateAll(), default, skip.ToDictionary(s => s, _ => Reason));
    }

    [TestCase("hang")]
    [TestCase("dictcycle")]
    [TestCase("ctororder")]
    public void In_process_the_left_out_detector_is_skipped_and_the_rest_stands(string skipped)
    {
        AnalysisReport healthy = Analyse(Dump);
        Assert.That(healthy.Outcomes.Single(o => o.Detector == "hang").Findings, Is.Not.Empty, "the fixture: hang finds the deadlock");
        AnalysisReport report = Analyse(Dump, skipped);

        DetectorOutcome left = report.Outcomes.Single(o => o.Detector == skipped);
        Assert.That(left.Status, Is.EqualTo(DetectorStatus.Skipped));
        Assert.That(left.Reason, Is.EqualTo(Reason));
        Assert.That(left.HeapInterest, Is.Null, "no share of the heap pass");
        Assert.That(report.Findings.Where(f => f.Detector == skipped), Is.Empty);
        foreach (DetectorOutcome other in healthy.Outcomes.Where(o => o.Detector != skipped))
        {
            DetectorOutcome same = report.Outcomes.Single(o => o.Detector == other.Detector);
            Assert.That(same.Status, Is.EqualTo(other.Status), other.Detector);
            Assert.That(same.Findings.Select(f => f.Title), Is.EqualTo(other.Findings.Select(f => f.Title)), other.Detector);
            Assert.That(same.HeapInterest?.Objects, Is.EqualTo(other.HeapInterest?.Objects), other.Detector + ": the same objects handed to its interest");
        }
    }

    [Test]
    public void Left_out_detectors_register_no_heap_interest()
    {
        string[] withInterest = [.. DetectorCatalog.CreateAll().Where(d => d.HeapInterest is not null).Select(d => d.Name)];
        Assert.That(Analyse(Dump).HeapPass, Is.Not.Null, "the fixture: the heap pass runs for them");

        AnalysisReport report = Analyse(Dump, withInterest);

        Assert.That(report.HeapPass, Is.Null, "with every interest left out, no heap pass is started");
        Assert.That(report.Outcomes.Where(o => withInterest.Contains(o.Detector)).Select(o => o.Status), Is.All.EqualTo(DetectorStatus.Skipped));
    }

    [Test]
    public void Through_the_isolation_child_text_and_json_say_skipped()
    {
        Diagext.Result text = Diagext.Run("analyze", Dump, "--skip", "hang");
        Diagext.Result json = Diagext.Run("analyze", Dump, "--skip", "hang", "--json");
        Diagext.Result others = Diagext.Run("analyze", Dump, "--skip", "dictcycle,ctororder", "--json");

        Assert.That(text.ExitCode, Is.EqualTo((int)ExitCode.NothingFound), text.Stdout + text.Stderr);
        Assert.That(text.Stdout, Does.Contain($"hang: skipped: {Reason}"));
        Assert.That(text.Stdout, Does.Not.Contain("[hang]"));
        JsonElement hang = Detector(json.Json, "hang");
        Assert.That(hang.GetProperty("status").GetString(), Is.EqualTo("skipped"));
        Assert.That(hang.GetProperty("reason").GetString(), Is.EqualTo(Reason));
        Assert.That(hang.TryGetProperty("heapInterest", out _), Is.False);
        Assert.That(json.Findings.Select(f => f.GetProperty("detector").GetString()), Has.None.EqualTo("hang"));

        Assert.That(others.ExitCode, Is.EqualTo((int)ExitCode.HazardsFound), others.Stderr);
        Assert.That(others.Findings.Select(f => f.GetProperty("detector").GetString()), Has.Some.EqualTo("hang"), "the others' findings stand");
        Assert.That(new[] { "dictcycle", "ctororder" }.Select(d => Detector(others.Json, d).GetProperty("status").GetString()), Is.All.EqualTo("skipped"));
        Assert.That(Detector(others.Json, "hang").GetProperty("heapInterest").GetProperty("objects").GetInt64(), Is.GreaterThan(0));
    }

    [Test]
    public void Verbose_phase_lines_give_each_detectors_share_of_the_heap_pass()
    {
        Diagext.Result all = Diagext.Run("analyze", Dump, "--verbose");
        Diagext.Result skipped = Diagext.Run("analyze", Dump, "--verbose", "--skip", "hang");

        Assert.That(all.Stdout, Does.Match(@"(?m)^phase: heap pass \d+ ms, [\d,]+ objects"));
        Assert.That(all.Stdout, Does.Match(@"(?m)^phase: hang \d+ ms; its heap interest \d+\.\d ms of the heap pass \([\d,]+ objects\)$"));
        Assert.That(skipped.Stdout, Does.Not.Contain("phase: hang"));
        Assert.That(skipped.Stdout, Does.Match(@"(?m)^phase: dictcycle \d+ ms; its heap interest"));
    }

    [Test]
    public void On_a_live_process_the_left_out_detector_is_skipped()
    {
        using SampleProcess hung = SampleProcess.StartAndWaitReady(SampleBuilder.Build("Hangs"), ["semaphore"], TimeSpan.FromMinutes(3), detached: true);

        Diagext.Result result = Diagext.Run("analyze", "--pid", hung.Pid.ToString(), "--skip", "dictcycle", "--json");

        Assert.That(result.ExitCode, Is.EqualTo((int)ExitCode.HazardsFound), result.Stdout + result.Stderr);
        Assert.That(result.Json.GetProperty("target").GetProperty("kind").GetString(), Is.EqualTo("LiveProcess"));
        Assert.That(Detector(result.Json, "dictcycle").GetProperty("reason").GetString(), Is.EqualTo(Reason));
        Assert.That(result.Findings.Select(f => f.GetProperty("detector").GetString()), Has.Some.EqualTo("hang"));
    }

    [Test]
    public void A_batch_passes_skip_to_each_dump()
    {
        string folder = Path.Combine(Repo.WorkDirectory, "skip-batch");
        Directory.CreateDirectory(folder);
        DumpLink.Place(Dump, Path.Combine(folder, "semaphore.core"));
        string json = Path.Combine(Repo.WorkDirectory, "skip-batch.json");

        Diagext.Result result = Diagext.Run("analyze", folder, "--skip", "hang", "--json=" + json, "--quiet");

        Assert.That(result.ExitCode, Is.EqualTo((int)ExitCode.NothingFound), result.Stdout + result.Stderr);
        using var document = JsonDocument.Parse(File.ReadAllText(json));
        JsonElement dump = document.RootElement.GetProperty("dumps").EnumerateArray().Single();
        JsonElement hang = dump.GetProperty("detectors").EnumerateArray().Single(d => d.GetProperty("name").GetString() == "hang");
        Assert.That(hang.GetProperty("status").GetString(), Is.EqualTo("skipped"));
        Assert.That(hang.GetProperty("reason").GetString(), Is.EqualTo(Reason));
        Assert.That(document.RootElement.GetProperty("findings").GetArrayLength(), Is.Zero);
        ReportSchema.AssertValid(File.ReadAllText(json), "batch with --skip");
    }

    private static JsonElement Detector(JsonElement report, string name) =>
        report.GetProperty("detectors").EnumerateArray().Single(d => d.GetProperty("name").GetString() == name);
}
