using DiagExt.Fuzz.Targets;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Fuzz;

/// <summary>
/// Each target under AFL++ for a few seconds (tests/Fuzz/afl.sh: SharpFuzz-instrumented DiagExt.Core, the runner's
/// seeds and properties): the harness starts under afl-fuzz, the instrumentation reports edges, every seed passes
/// and nothing AFL finds in that time fails the runner's properties. The 10-minute campaigns are afl.sh's, not the
/// suite's (tests/Fuzz/README.md).
/// </summary>
[TestFixture]
public class AflSmokeTests
{
    private const int Seconds = 2;

    private const int AflMissingExitCode = 3;

    private static readonly string Work = Path.Combine(Repo.Root, "artifacts", "afl-smoke");

    public static IEnumerable<string> Targets() => TargetCatalog.All.Select(t => t.Name);

    [OneTimeSetUp]
    public void BuildHarnessOnce()
    {
        ProcessRunner.Result build = ProcessRunner.Run("dotnet", ["build", Path.Combine(Repo.Root, "tests", "Fuzz", "DiagExt.AflHarness"), "-c", "Release", "-nologo", "-v", "quiet"],
            TimeSpan.FromMinutes(5));
        Assert.That(build.ExitCode, Is.Zero, build.Stdout + build.Stderr);
    }

    [TestCaseSource(nameof(Targets))]
    public void Short_afl_run_finds_nothing(string name)
    {
        FuzzSmokeTests.MakeCores(name); // the heap targets' seeds are objects of cores the suite makes
        string findings = Path.Combine(Work, name, "findings");
        if (Directory.Exists(findings))
            Directory.Delete(findings, true);
        ProcessRunner.Result run = ProcessRunner.Run("bash", [Path.Combine(Repo.Root, "tests", "Fuzz", "afl.sh"), name, Seconds.ToString()], TimeSpan.FromMinutes(3),
            environment: new Dictionary<string, string> { ["AFL_WORK"] = Work, ["AFL_FINDINGS_DIR"] = findings, ["AFL_SKIP_BUILD"] = "1", ["AFL_NO_TMIN"] = "1" });
        if (run.ExitCode == AflMissingExitCode)
            Assert.Ignore($"AFL++ is not installed and could not be: {run.Stderr.Trim()}");
        TestContext.Out.WriteLine(run.Stdout);
        Assert.That(run.ExitCode, Is.AnyOf(0, 1), run.Stdout + run.Stderr);

        var stats = File.ReadAllLines(Path.Combine(Work, name, "out", "default", "fuzzer_stats"))
            .Select(l => l.Split(':', 2)).Where(p => p.Length == 2).ToDictionary(p => p[0].Trim(), p => p[1].Trim());
        int seeds = Directory.GetFiles(Path.Combine(Work, name, "seeds")).Length;
        Assert.That(long.Parse(stats["execs_done"]), Is.GreaterThan(seeds), "afl-fuzz ran no more than its seeds' calibration");
        Assert.That(int.Parse(stats["edges_found"]), Is.GreaterThan(50), "no edges: DiagExt.Core's instrumentation does not reach AFL's map");

        // Every input AFL saved is replayed through the runner in a child process: a FAIL is a defect. wcf and hang
        // may see the DAC die natively on a mutated heap (tests/Fuzz/README.md), which diagext survives in its child process.
        foreach (string input in Directory.Exists(findings) ? Directory.GetFiles(findings) : [])
        {
            ProcessRunner.Result replay = ProcessRunner.Run("dotnet", [Path.Combine(AppContext.BaseDirectory, "DiagExt.Fuzz.dll"), "replay", name, input], TimeSpan.FromMinutes(2));
            bool dacDeath = name is "wcf" or "hang" && replay.ExitCode > 128;
            Assert.That(replay.ExitCode == 0 || dacDeath, Is.True, $"AFL's input {input} fails the runner's properties:\n{replay.Stdout}{replay.Stderr}");
        }
    }
}
