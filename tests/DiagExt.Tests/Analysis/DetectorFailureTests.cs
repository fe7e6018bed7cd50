using DiagExt.Core.Catalog;
using DiagExt.Core.Analysis;
using DiagExt.Core.Errors;
using DiagExt.Core.Reports;
using DiagExt.Core.Targets;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Analysis;

/// <summary>
/// One detector's failure never loses the report: each detector in the catalog is made to throw (the test-only
/// DIAGEXT_TEST_FAIL_DETECTOR hook) on a real dump it runs on (the DictCycle sample's core; for a detector that needs
/// a Windows minidump, the loader-lock fixture dumped under Wine), in-process, through the isolation child and in a
/// batch: the failure is named with its reason, every other detector's outcome stands, and the exit code is 1 when
/// the others still found a hazard, 3 when none did. The WinDbg extension's side is in WinDbg/WindowsDotnetTargetTests.
/// </summary>
[TestFixture]
[NonParallelizable]
[Category(TestKind.Windows)]
public class DetectorFailureTests
{
    public const string Hook = "DIAGEXT_TEST_FAIL_DETECTOR";

    private static string Dump => DumpMaker.DumpOfSample("DictCycle", "dictcycle-dictionary.core");

    /// <summary>
    /// A real dump on which <paramref name="detector"/> starts: it has what the detector needs (wcfhang then finds it does
    /// not apply: the hook fails it there, before that question, which is where a detector's own code starts).
    /// </summary>
    private static string DumpFor(string detector) =>
        DetectorCatalog.Find(detector)!.Needs == DetectorNeeds.WindowsMinidump ? WineDumpMaker.Dump("x86_64", "spin").Path : Dump;

    /// <summary>The exit code when <paramref name="failing"/> fails: 1 if the other detectors find a hazard there, else 3.</summary>
    private static ExitCode Expected(AnalysisReport healthy, string failing) =>
        healthy.Outcomes.Where(o => o.Detector != failing).SelectMany(o => o.Findings).Any(f => f.IsHazard) ? ExitCode.HazardsFound : ExitCode.Incomplete;

    private static IEnumerable<string> Detectors => DetectorCatalog.CreateAll().Select(d => d.Name);

    /// <summary>Runs <paramref name="body"/> with the hook naming <paramref name="detector"/>, and clears it after.</summary>
    public static T Failing<T>(string detector, Func<T> body)
    {
        Environment.SetEnvironmentVariable(Hook, detector);
        try
        {
            return body();
        }
        finally
        {
            Environment.SetEnvironmentVariable(Hook, null);
        }
    }

    [TestCaseSource(nameof(Detectors))]
    public void In_process_the_failure_is_one_outcome_and_the_rest_stands(string failing)
    {
        AnalysisReport healthy = Analyse(DumpFor(failing));
        DetectorOutcome before = healthy.Outcomes.Single(o => o.Detector == failing);
        Assert.That(before.Status == DetectorStatus.Ran || before.DoesNotApply, Is.True, "a dump with what the detector needs");
        AnalysisReport report = Failing(failing, () => Analyse(DumpFor(failing)));

        DetectorOutcome failed = report.Outcomes.Single(o => o.Detector == failing);
        Assert.That(failed.Status, Is.EqualTo(DetectorStatus.Failed));
        Assert.That(failed.Reason, Is.EqualTo($"InvalidOperationException: failure forced by {Hook} for a test"));
        Assert.That(failed.Detail, Does.Contain("FailureInjection.ThrowIfAsked"), "the stack is kept for --verbose");
        Assert.That(report.Incomplete, Is.True);
        foreach (DetectorOutcome other in healthy.Outcomes.Where(o => o.Detector != failing))
        {
            DetectorOutcome same = report.Outcomes.Single(o => o.Detector == other.Detector);
            Assert.That(same.Status, Is.EqualTo(other.Status), other.Detector);
            Assert.That(same.Findings.Select(f => f.Title), Is.EqualTo(other.Findings.Select(f => f.Title)), other.Detector);
        }
        Assert.That(report.ExitCode, Is.EqualTo(Expected(healthy, failing)));
    }

    [TestCaseSource(nameof(Detectors))]
    public void Through_the_isolation_child_the_report_says_it_is_incomplete(string failing)
    {
        string dump = DumpFor(failing);
        AnalysisReport healthy = Analyse(dump);
        Diagext.Result text = Failing(failing, () => Diagext.Run("analyze", dump));
        Diagext.Result json = Failing(failing, () => Diagext.Run("analyze", dump, "--json"));

        int expected = (int)Expected(healthy, failing);
        Assert.That(text.ExitCode, Is.EqualTo(expected), text.Stdout + text.Stderr);
        Assert.That(json.ExitCode, Is.EqualTo(expected), json.Stderr);
        Assert.That(text.Stdout, Does.Contain($"{failing}: failed: InvalidOperationException: failure forced by {Hook} for a test"));
        Assert.That(text.Stdout, Does.Contain($"analysis incomplete: {failing} failed"));
        Assert.That(text.Stdout, Does.Not.Contain("FailureInjection.ThrowIfAsked"), "no stack without --verbose");
        foreach (Finding finding in healthy.Outcomes.Where(o => o.Detector != failing).SelectMany(o => o.Findings))
            Assert.That(text.Stdout, Does.Contain($"[{finding.Detector}] {finding.Title}"), "the other detectors' findings are printed");

        var detectors = json.Json.GetProperty("detectors").EnumerateArray().ToDictionary(d => d.GetProperty("name").GetString()!, d => d);
        Assert.That(detectors[failing].GetProperty("status").GetString(), Is.EqualTo("failed"));
        Assert.That(detectors[failing].TryGetProperty("detail", out _), Is.False);
        Assert.That(detectors.Where(d => d.Key != failing).Select(d => d.Value.GetProperty("status").GetString()), Has.None.EqualTo("failed"));
    }

    [Test]
    public void Verbose_shows_where_the_detector_failed()
    {
        Diagext.Result text = Failing("wcfhang", () => Diagext.Run("wcfhang", Dump, "--verbose"));
        Diagext.Result json = Failing("wcfhang", () => Diagext.Run("wcfhang", Dump, "--json", "--verbose"));

        Assert.That(text.ExitCode, Is.EqualTo((int)ExitCode.Incomplete), text.Stdout + text.Stderr);
        Assert.That(text.Stdout, Does.Contain("FailureInjection.ThrowIfAsked"));
        Assert.That(json.Json.GetProperty("detectors")[0].GetProperty("detail").GetString(), Does.Contain("FailureInjection.ThrowIfAsked"));
    }

    [Test]
    public void A_batch_lists_the_failed_detector_per_dump_and_exits_3_without_hazards()
    {
        string folder = Path.Combine(Repo.WorkDirectory, "failing-batch");
        Directory.CreateDirectory(folder);
        string healthy = Path.Combine(folder, "healthy.core");
        DumpLink.Place(DumpMaker.DumpOfSample("Healthy", "healthy.core"), healthy);
        string json = Path.Combine(folder, "..", "failing-batch.json");

        Diagext.Result result = Failing("ctororder", () => Diagext.Run("analyze", folder, "--json=" + json, "--quiet"));

        Assert.That(result.ExitCode, Is.EqualTo((int)ExitCode.Incomplete), result.Stdout + result.Stderr);
        Assert.That(result.Stdout, Does.Contain("incomplete (a detector failed").And.Contain("healthy.core: ctororder failed: InvalidOperationException"));
        using var document = System.Text.Json.JsonDocument.Parse(File.ReadAllText(json));
        Assert.That(document.RootElement.GetProperty("exitCode").GetInt32(), Is.EqualTo(3));
        Assert.That(document.RootElement.GetProperty("totals").GetProperty("incomplete").GetInt32(), Is.EqualTo(1));
        ReportSchema.AssertValid(File.ReadAllText(json), "failing batch");
    }

    private static AnalysisReport Analyse(string dump)
    {
        using Target target = TargetOpener.OpenDump(dump);
        return Analyzer.Run(target, DetectorCatalog.CreateAll());
    }
}
