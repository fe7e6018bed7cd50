using System.Text.Json;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Hang;

/// <summary>
/// hang on a real library driven into a real deadlock: log4net 3.5.0's appender lock against an application lock
/// (samples/Log4NetDeadlock; its GROUND-TRUTH.md was written and committed before diagext was run on it). Two runs.
/// </summary>
[TestFixture]
public class HangRealLibraryTests
{
    private static IEnumerable<TestCaseData> Runs() => HangSample.AllRuns.Select(r => new TestCaseData(r).SetArgDisplayNames($"run {r}"));

    [TestCaseSource(nameof(Runs))]
    public void Log4net_appender_lock_against_an_app_lock_is_the_deadlock_the_ground_truth_says(int run)
    {
        DumpMaker.SampleDump made = DumpMaker.DumpOfSampleWithOutput("Log4NetDeadlock", null, $"hang-log4net-{run}.core");
        var dump = new HangSample.Dump(made.Path, made.Output);
        Diagext.Result result = Diagext.Run("hang", dump.Path, "--json");
        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stdout + result.Stderr);

        JsonElement finding = result.Findings.Single();
        Assert.That(finding.GetProperty("kind").GetString(), Is.EqualTo("deadlock"));
        JsonElement[] cycle = finding.GetProperty("cycle").EnumerateArray().ToArray();
        JsonElement pricing = cycle.Single(s => s.GetProperty("managedThreadId").GetInt32() == dump.Thread("pricing").ManagedId);
        JsonElement orders = cycle.Single(s => s.GetProperty("managedThreadId").GetInt32() == dump.Thread("orders").ManagedId);
        Assert.That(cycle, Has.Length.EqualTo(2));
        var locks = finding.GetProperty("locks").EnumerateArray().ToDictionary(l => l.GetProperty("address").GetString()!);
        JsonElement gate = locks[pricing.GetProperty("waitsFor").GetString()!];
        Assert.That(gate.GetProperty("path").GetString(), Is.EqualTo("OrderBook.Gate"));
        Assert.That(gate.GetProperty("heldBy").EnumerateArray().Single().GetUInt32(), Is.EqualTo(orders.GetProperty("osThreadId").GetUInt32()));
        Assert.That(pricing.GetProperty("callerFrame").GetString(), Is.EqualTo("OrderBook+Order.ToString"));
        JsonElement appender = locks[orders.GetProperty("waitsFor").GetString()!];
        Assert.That(appender.GetProperty("heldBy").EnumerateArray().Single().GetUInt32(), Is.EqualTo(pricing.GetProperty("osThreadId").GetUInt32()));
        Assert.That(orders.GetProperty("callerFrame").GetString(), Is.EqualTo("AppenderSkeleton.DoAppend"), "the wait is inside log4net");
        Assert.That(orders.GetProperty("holds").GetString(), Is.EqualTo(gate.GetProperty("address").GetString()));
        Assert.That(pricing.GetProperty("holds").GetString(), Is.EqualTo(appender.GetProperty("address").GetString()));
        Assert.That(finding.GetProperty("threads").EnumerateArray().Select(t => t.GetProperty("role").GetString()), Has.None.StartsWith("bystander"));
    }
}
