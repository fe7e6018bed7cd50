using System.Text.Json;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Hang;

/// <summary>
/// hang on dumps of samples/Hangs' two async methods deadlocked on two SemaphoreSlims (two runs): no thread is
/// blocked, so only the semaphores' queued waiters and the methods' own code show the cycle.
/// </summary>
[TestFixture]
public class HangAsyncTests
{
    private static IEnumerable<TestCaseData> Runs() => HangSample.AllRuns.Select(r => new TestCaseData(r).SetArgDisplayNames($"run {r}"));

    [TestCaseSource(nameof(Runs))]
    public void Two_async_methods_on_two_semaphores_give_an_async_deadlock_with_each_method_and_semaphore(int run)
    {
        HangSample.Dump dump = HangSample.Of("semaphore", run);
        Assert.That(dump.Output, Does.Contain("method ReserveStockAsync holds Inventory waits Orders").And.Contain("method PlaceOrderAsync holds Orders waits Inventory"));
        Diagext.Result result = Diagext.Run("hang", dump.Path, "--json");
        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stdout + result.Stderr);

        JsonElement finding = result.Findings.Single();
        Assert.That(finding.GetProperty("kind").GetString(), Is.EqualTo("async-deadlock"));
        Assert.That(finding.GetProperty("threads").GetArrayLength(), Is.Zero, "no thread is involved");
        var locks = finding.GetProperty("locks").EnumerateArray().ToDictionary(l => l.GetProperty("address").GetString()!, l => l);
        Assert.That(locks.Values.Select(l => l.GetProperty("path").GetString()), Is.EquivalentTo(new[] { "Hangs.SemaphoreDeadlock.Inventory", "Hangs.SemaphoreDeadlock.Orders" }));
        Assert.That(locks.Values.Select(l => l.GetProperty("heldBy").GetArrayLength()), Is.All.Zero, "a semaphore has no owner: none is invented");
        Assert.That(locks.Values.Select(l => l.GetProperty("detail").GetString()), Is.All.EqualTo("count 0 of 1, 1 async waiter, 0 sync"));

        var truth = new Dictionary<string, (string Holds, string Waits)>
        {
            ["SemaphoreDeadlock.ReserveStockAsync"] = ("Inventory", "Orders"),
            ["SemaphoreDeadlock.PlaceOrderAsync"] = ("Orders", "Inventory"),
        };
        JsonElement[] cycle = finding.GetProperty("cycle").EnumerateArray().ToArray();
        Assert.That(cycle.Select(s => s.GetProperty("method").GetString()), Is.EquivalentTo(truth.Keys));
        foreach (JsonElement step in cycle)
        {
            (string holds, string waits) = truth[step.GetProperty("method").GetString()!];
            Assert.That(locks[step.GetProperty("waitsFor").GetString()!].GetProperty("path").GetString(), Does.EndWith("." + waits));
            Assert.That(locks[step.GetProperty("holds").GetString()!].GetProperty("path").GetString(), Does.EndWith("." + holds));
            Assert.That(step.TryGetProperty("osThreadId", out _), Is.False, "no thread");
            Assert.That(step.GetProperty("stateMachine").GetString(), Does.Match("^0x[0-9a-f]+$"));
            Assert.That(step.GetProperty("frame").GetString(), Is.EqualTo($"await SemaphoreDeadlock.{waits}.WaitAsync()"));
        }
        Assert.That(finding.GetProperty("evidence").EnumerateArray().Select(e => e.GetString()), Has.Some.StartWith("a SemaphoreSlim records no owner"));
    }
}
