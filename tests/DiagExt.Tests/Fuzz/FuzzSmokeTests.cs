using DiagExt.Fuzz;
using DiagExt.Fuzz.Engine;
using DiagExt.Fuzz.Targets;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Fuzz;

/// <summary>
/// A few seconds of fuzzing per target with a fixed seed, in-process, from the seeds CI always has (built-in
/// ones, the regression corpus, the shared Windows dumps): no crash, hang, memory blow-up or broken output. The
/// long runs (10 minutes per target) are "DiagExt.Fuzz run", not part of the suite (tests/Fuzz/README.md).
/// </summary>
[TestFixture]
public class FuzzSmokeTests
{
    private static readonly TimeSpan RunFor = TimeSpan.FromSeconds(4);

    /// <summary>
    /// Every target but wcf and hang, which run ClrMD and the DAC over a mutated heap: the DAC can fault natively on one
    /// (seen: SIGSEGV in libmscordaccore.so), which would end this test host. They run in worker processes below.
    /// </summary>
    public static IEnumerable<string> Targets() => TargetCatalog.All.Select(t => t.Name).Where(n => !HeapTargets.Contains(n));

    private static readonly string[] HeapTargets = ["wcf", "hang"];

    /// <summary>Makes the suite's core a heap target overlays (its seeds are that core's objects).</summary>
    public static void MakeCores(string target)
    {
        if (target == "wcf")
            WcfHangSample.Dump("apm");
        else if (target == "hang")
            foreach (string mode in new[] { "rwlock", "lock3", "semaphore", "starvation" })
                HangSample.Of(mode, 1);
    }

    [TestCaseSource(nameof(Targets))]
    public void Short_run_finds_nothing(string name)
    {
        IFuzzTarget target = TargetCatalog.Find(name);
        var log = new StringWriter();
        WorkerStats? stats = null;
        var options = new WorkerOptions
        {
            Target = target,
            Seed = 20261122,
            Duration = RunFor,
            // Without the shared dumps the minidump target still has its built-in seeds and the regression corpus.
            SeedDirectories = name == "minidump" && Repo.HasSharedDumps ? [FuzzPaths.RegressionCorpus(name), Repo.SharedWindowsDumps] : [FuzzPaths.RegressionCorpus(name)],
            InputTimeout = TimeSpan.FromSeconds(20),
            Log = log,
        };
        // A hang cannot be stopped in-process: the loop runs on its own thread and the test gives up on it.
        var thread = new Thread(() => stats = FuzzWorker.Run(options), 64 * 1024 * 1024) { IsBackground = true };
        thread.Start();
        Assert.That(thread.Join(RunFor + TimeSpan.FromMinutes(1)), Is.True, $"the fuzz loop hung:\n{log}");

        TestContext.Out.WriteLine($"{name}: {stats!.Executions:N0} executions in {stats.Elapsed.TotalSeconds:0.0}s ({stats.ExecutionsPerSecond:0}/s), corpus {stats.CorpusSize}, {stats.Rejected:N0} rejected as documented bad input");
        Assert.That(stats.Executions, Is.GreaterThan(stats.Seeds));
        Assert.That(stats.Failures, Is.Empty, () => string.Join("\n\n", stats.FirstFailures.Select(f => $"{f.Failure.Signature}\n{f.Failure.Detail}")));
    }

    /// <summary>
    /// The wcf and hang targets through the fuzzer's own supervisor, whose workers are processes: a worker that dies (a
    /// native fault in the DAC, which diagext survives by analysing each dump in a child process) is recorded as a death
    /// and replaced. Any other failure (an exception the detector lets out, a broken report) fails the test.
    /// </summary>
    [TestCase("wcf")]
    [TestCase("hang")]
    public void Heap_target_short_run_in_worker_processes_finds_nothing_but_dac_deaths(string target)
    {
        MakeCores(target); // its seeds are the objects of cores the suite makes
        string fuzzer = Path.Combine(AppContext.BaseDirectory, "DiagExt.Fuzz.dll");
        ProcessRunner.Result run = ProcessRunner.Run("dotnet", [fuzzer, "run", target, "--seconds", "5", "--parallel", "1", "--seed", "20261122"],
            TimeSpan.FromMinutes(3), workingDirectory: Repo.Root);
        string? summary = run.Stdout.Split('\n').LastOrDefault(l => l.StartsWith(target + " ", StringComparison.Ordinal));
        if (summary is null)
        {
            Assert.Fail($"no summary line:\n{run.Stdout}\n{run.Stderr}");
            return;
        }
        TestContext.Out.WriteLine(summary);
        string failures = summary[(summary.LastIndexOf("  ", StringComparison.Ordinal) + 2)..].Trim();
        if (failures != "none")
            Assert.That(failures.Split("; ").Where(f => !f.StartsWith("died:", StringComparison.Ordinal)), Is.Empty, run.Stdout);
    }
}
