using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Bench;

/// <summary>
/// bench/run.sh --quick end to end (about a minute): it generates a heap of about a million objects, dumps it,
/// and runs the bare walk, analyze, each detector, each detector's cost in analyze (alternated pairs) and the
/// classifier on it. Timings are printed, never asserted; what is asserted is that the runner works from this clone
/// and that analyze found exactly the generator's corrupt tables with one thread and with several, in the Native AOT
/// build (the tool package's: DIAGEXT_AOT) and the ReadyToRun one.
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class BenchRunTests
{
    [Test]
    public void Quick_bench_runs_and_its_checks_pass()
    {
        // The tool package's Native AOT executable, not a second AOT compile of the same code (ToolPackages).
        Dictionary<string, string> environment = ToolPackages.NativeExecutable is { } native ? new() { ["DIAGEXT_AOT"] = native } : [];
        ProcessRunner.Result result = ProcessRunner.Run("bash", ["bench/run.sh", "--quick"], TimeSpan.FromMinutes(15), Repo.Root, environment);

        string output = result.Stdout + result.Stderr;
        Assert.That(result.ExitCode, Is.EqualTo(0), output);
        Assert.That(output, Does.Not.Contain("CHECK FAILED"));
        if (environment.Count > 0)
            Assert.That(output, Does.Contain("(DIAGEXT_AOT), not compiled again"), "the tool package's executable is what was measured");
        Assert.That(output, Does.Contain("check ok: analyze reports the generator's corrupt tables, and only those (4)"));
        Assert.That(output, Does.Contain("check ok: analyze walked the same objects as the bare walk"));
        Assert.That(result.Stdout, Does.Match(@"(?m)^dictcycle alone\s+\d+\.\d\d"));
        // Each detector that ran, its cost from alternated pairs against analyze --skip it (issue 43).
        Assert.That(result.Stdout, Does.Contain("the median of 3 alternated pairs"), "--quick takes 3 pairs");
        foreach (string detector in new[] { "dictcycle", "hang" })
            Assert.That(result.Stdout, Does.Match($@"(?m)^  {detector}'s cost in analyze, % \(-?\d+\.\d\d to -?\d+\.\d\d; -?\d+\.\d\d to -?\d+\.\d\d\)\s+-?\d+\.\d\d <= 5\s+(met|NOT met|cannot tell)$"),
                "the median, the interval that holds it with 95 % confidence, the spread, and a verdict on the interval");
        Assert.That(result.Stdout, Does.Match(@"(?m)^dotnet-dump"), "the report must say whether dotnet-dump was measured");
        Assert.That(result.Stdout, Does.Match(@"(?m)^memory: first write of fresh memory: \d+\.\d\d ms per MB"), "the host's price of fresh memory");
        Assert.That(result.Stdout, Does.Match(@"(?m)^  analyze --skip dictcycle / bare walk\s+\d+\.\d\d$"), "the rest of analyze against the floor");
        Assert.That(result.Stdout, Does.Match(@"(?m)^  dictcycle's read floor in analyze, % \(-?\d+\.\d\d to -?\d+\.\d\d\)\s+-?\d+\.\d\d$"), "what reading the tables alone costs");
        // Native AOT where this machine can link it (clang), with the ReadyToRun dotnet tool measured beside it.
        Assert.That(result.Stdout.TrimEnd(), Does.Match(@"analyze/bare-walk ratio: \d+\.\d\d \((Native AOT|ReadyToRun)\)$"));
        if (result.Stdout.Contains("(Native AOT)"))
        {
            Assert.That(output, Does.Contain("check ok: the ReadyToRun analyze reports the same (4)"));
            Assert.That(result.Stdout, Does.Match(@"(?m)^analyze \(ReadyToRun, the dotnet tool\)/bare-walk ratio: \d+\.\d\d$"));
        }
    }
}
