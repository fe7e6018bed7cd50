using System.Diagnostics;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.RealPrograms;

/// <summary>
/// A dump of Microsoft Garnet taken while redis-benchmark writes to it from 20 connections: Garnet keeps each hash
/// and set in a Dictionary / HashSet that grows under concurrent clients, so this is where a false dictcycle
/// positive would show on a program nobody here wrote.
/// </summary>
[TestFixture]
[Category(TestKind.RealPrograms)]
public class GarnetDumpTests
{
    // redis-benchmark runs its tests in a fixed order, HSET last: the dump is taken during HSET, once the hash
    // "myhash" holds this many fields, so the dump has both a large Dictionary and requests in flight.
    private const int FieldsBeforeDump = 30_000;
    private const string Load = "set,get,incr,lpush,sadd,hset";

    [Test]
    public void Dump_under_load_has_no_dictcycle_finding_and_no_hazard()
    {
        using GarnetServer garnet = GarnetServer.Start();
        ProcessRuntime runtime = ProcessRuntime.Of(garnet.Pid);
        TestContext.Out.WriteLine($"garnet-server {GarnetServer.Version} pid {garnet.Pid} on 127.0.0.1:{garnet.Port}, .NET {runtime.Version} ({runtime.Directory})");

        Task<RedisBenchmark> load = RedisBenchmark.Start(garnet.Port, 200_000, Load);
        WaitForFields(garnet, load);
        string dump = DumpMaker.Dump(garnet.Pid, "realprograms-garnet.core", runtime.CreateDump);
        // The load goes on after the dump (createdump pauses the server only while it writes) and must complete.
        Assert.That(load.Wait(TimeSpan.FromMinutes(2)), Is.True, "redis-benchmark did not finish");
        load.Result.AssertCompleted("while the server was dumped");
        TestContext.Out.WriteLine($"load while dumped: {load.Result}");

        HeapCensus census = HeapCensus.Of(dump);
        TestContext.Out.WriteLine($"heap census: {census}");
        Assert.That(census.Dictionaries.LargestCount, Is.GreaterThanOrEqualTo(FieldsBeforeDump), "the dump holds myhash, a Dictionary at least this large");

        CleanAnalysis.OfDump(dump, "garnet under load");
        // Kept only when an assertion failed, for a human to look at: it is half a gigabyte.
        File.Delete(dump);
    }

    private static void WaitForFields(GarnetServer garnet, Task<RedisBenchmark> load)
    {
        var waited = Stopwatch.StartNew();
        while (true)
        {
            Assert.That(load.IsCompleted, Is.False, () => $"redis-benchmark ended before the dump:\n{load.Result.Output}");
            Assert.That(waited.Elapsed, Is.LessThan(TimeSpan.FromMinutes(2)), "myhash did not grow");
            if (long.TryParse(garnet.Cli("hlen", "myhash"), out long fields) && fields >= FieldsBeforeDump)
            {
                TestContext.Out.WriteLine($"dumping at {fields:N0} fields in myhash, {waited.Elapsed.TotalSeconds:N1}s into the load");
                return;
            }
            Thread.Sleep(100);
        }
    }
}
