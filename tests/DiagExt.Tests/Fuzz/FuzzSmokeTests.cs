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

    public static IEnumerable<string> Targets() => TargetCatalog.All.Select(t => t.Name);

    [TestCaseSource(nameof(Targets))]
    public void Short_run_finds_nothing(string name)
    {
        IFuzzTarget target = TargetCatalog.Find(name);
        if (name == "wcf")
            WcfHangSample.Dump("apm"); // its seed is the hung client's core, made by the suite
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
}
