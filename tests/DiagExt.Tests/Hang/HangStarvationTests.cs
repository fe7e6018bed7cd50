using System.Text.Json;
using System.Text.RegularExpressions;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Hang;

/// <summary>
/// hang on dumps of samples/Hangs' thread-pool starvation (two runs): the pool capped at one worker per core, every
/// worker blocked in OrderService.Load's .Result on a task whose continuation is queued behind it.
/// </summary>
[TestFixture]
public class HangStarvationTests
{
    private static IEnumerable<TestCaseData> Runs() => HangSample.AllRuns.Select(r => new TestCaseData(r).SetArgDisplayNames($"run {r}"));

    [TestCaseSource(nameof(Runs))]
    public void Every_worker_blocked_on_a_task_with_work_queued_is_starvation_by_sync_over_async(int run)
    {
        HangSample.Dump dump = HangSample.Of("starvation", run);
        int workers = int.Parse(Regex.Match(dump.Output, @"^workers (\d+)", RegexOptions.Multiline).Groups[1].Value);
        Diagext.Result result = Diagext.Run("hang", dump.Path, "--json");
        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stdout + result.Stderr);

        JsonElement finding = result.Findings.Single();
        Assert.That(finding.GetProperty("kind").GetString(), Is.EqualTo("threadpool-starvation"));
        Assert.That(finding.GetProperty("title").GetString(), Does.StartWith("Thread-pool starvation by sync-over-async"));
        JsonElement pool = finding.GetProperty("threadPool");
        Assert.That(pool.GetProperty("workers").GetInt32(), Is.EqualTo(workers), "the pool was capped at this many");
        Assert.That(pool.GetProperty("maxWorkers").GetInt32(), Is.EqualTo(workers));
        Assert.That(pool.GetProperty("blockedWorkers").GetInt32(), Is.EqualTo(workers));
        Assert.That(pool.GetProperty("queued").GetInt32(), Is.GreaterThanOrEqualTo(6), "the sample queued workers + 6 items and each blocked worker's continuation");
        Assert.That(pool.GetProperty("blockedAt").EnumerateArray().Select(b => b.GetString()), Is.EqualTo(new[] { $"OrderService.Load -> Task.Result ({workers})" }));
        Assert.That(finding.GetProperty("threads").EnumerateArray().Select(t => t.GetProperty("callerFrame").GetString()), Has.All.EqualTo("OrderService.Load"));
        Assert.That(finding.GetProperty("evidence").EnumerateArray().Select(e => e.GetString()),
            Has.Some.EqualTo($"{workers} of the tasks the workers wait for are in the queue, waiting for a worker: the workers wait for work only they could run"));
        Assert.That(finding.GetProperty("advice").GetString(), Does.Contain("Never block a pool thread on a task"));
    }
}
