using System.Diagnostics;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.RealPrograms;

/// <summary>
/// 'diagext attach' on Microsoft Garnet while redis-benchmark loads it: the server is stopped only while diagext
/// reads it, then serves on. Measured from the outside: the load running during the attach completes without an
/// error reply or lost connection, PING answers, and a benchmark afterwards runs as one before did.
/// </summary>
[TestFixture]
[Category(TestKind.RealPrograms)]
public class GarnetAttachTests
{
    private const string Probe = "set,get,hset";

    [Test]
    public void Attach_under_load_finds_nothing_and_the_server_keeps_serving()
    {
        using GarnetServer garnet = GarnetServer.Start();
        TestContext.Out.WriteLine($"garnet-server {GarnetServer.Version} pid {garnet.Pid} on 127.0.0.1:{garnet.Port}");
        RedisBenchmark before = RedisBenchmark.Run(garnet.Port, 20_000, Probe);
        before.AssertCompleted("before the attach");

        Task<RedisBenchmark> load = RedisBenchmark.Start(garnet.Port, 100_000, "set,get,sadd,hset");
        // Attach once requests are in flight: the keyspace has grown past what the probe wrote.
        long keys = long.Parse(garnet.Cli("dbsize"));
        var waited = Stopwatch.StartNew();
        while (long.Parse(garnet.Cli("dbsize")) < keys + 5_000 && !load.IsCompleted && waited.Elapsed < TimeSpan.FromMinutes(1))
            Thread.Sleep(50);
        Assert.That(load.IsCompleted, Is.False, "the load ended before the attach");

        var clock = Stopwatch.StartNew();
        Diagext.Result result = Diagext.Run("attach", garnet.Pid.ToString(), "--json");
        clock.Stop();
        TestContext.Out.WriteLine($"attach: {clock.Elapsed.TotalSeconds:N2}s wall (the server's threads are stopped at most this long)");
        Assert.That(result.Json.GetProperty("target").GetProperty("kind").GetString(), Is.EqualTo("LiveProcess"));
        CleanAnalysis.AssertClean(result, "garnet attached under load");

        // Let go: no thread left stopped or traced.
        Assert.That(ProcState.States(garnet.Pid).Values, Has.None.AnyOf('T', 't'), "a thread was left stopped");
        Assert.That(ProcState.AnyThreadTraced(garnet.Pid), Is.False, "a thread is still traced");
        Assert.That(garnet.Cli("ping"), Is.EqualTo("PONG"));
        Assert.That(load.Wait(TimeSpan.FromMinutes(2)), Is.True, "the load did not finish after the attach");
        load.Result.AssertCompleted("during the attach");

        RedisBenchmark after = RedisBenchmark.Run(garnet.Port, 20_000, Probe);
        after.AssertCompleted("after the attach");
        TestContext.Out.WriteLine($"requests/s before: {before}");
        TestContext.Out.WriteLine($"requests/s during: {load.Result}");
        TestContext.Out.WriteLine($"requests/s after:  {after}");
    }
}
