using System.Text.Json;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.RealPrograms;

/// <summary>
/// Issue 42's bar on a program nobody here wrote: Microsoft Garnet under redis-benchmark load (20 connections, SET, GET,
/// INCR, LPUSH, SADD, HSET), dumped 20 times one after the other. Ground truth, from reading Garnet's server code before
/// diagext ran on it: requests are served on pool threads from socket callbacks (SocketAsyncEventArgs) and its store is
/// protected by epochs (LightEpoch: spinning and yielding, no Monitor held across work), so no thread waits behind
/// another for long: no deadlock, no starvation, no chain that stays. Every dump: 'hang' exits 0 with no hazard or
/// warning. The last three dumps, a series of one process ('analyze' on them): no stuck chain, no hang finding above a
/// note. ('analyze' itself exits 1 on these dumps: ctororder warns on Microsoft.Extensions.DependencyInjection's
/// ILEmitResolverBuilder taking typeof(ServiceCacheKey).GetConstructors()[0], a type with one constructor: issue 41's
/// fourth category, a false alarm of ctororder's, not of hang's.)
/// </summary>
[TestFixture]
[Category(TestKind.RealPrograms)]
public class GarnetSeriesTests
{
    private const int Dumps = 20;
    private const string Load = "set,get,incr,lpush,sadd,hset";

    [Test]
    public void Twenty_dumps_under_load_give_no_warning_and_the_last_three_are_a_series_with_no_stuck_chain()
    {
        using GarnetServer garnet = GarnetServer.Start();
        ProcessRuntime runtime = ProcessRuntime.Of(garnet.Pid);
        string folder = WorkFolder.Fresh("realprograms", "garnet-series");
        using var stop = new CancellationTokenSource();
        // Load for as long as the dumps take: bounded runs one after the other, each of which must complete.
        Task<List<RedisBenchmark>> load = Task.Run(() =>
        {
            var runs = new List<RedisBenchmark>();
            while (!stop.IsCancellationRequested && runs.Count < 50)
                runs.Add(RedisBenchmark.Run(garnet.Port, 20_000, Load)); // short runs: the last one ends soon after the dumps
            return runs;
        });
        var kept = new Queue<string>();
        int notes = 0;
        try
        {
            Thread.Sleep(1000); // the load under way
            for (int i = 0; i < Dumps; i++)
            {
                string made = DumpMaker.Dump(garnet.Pid, $"garnet-series-{i}.core", runtime.CreateDump);
                string dump = Path.Combine(folder, $"garnet_{DateTimeOffset.UtcNow.ToUnixTimeSeconds()}_{i:00}.core");
                File.Move(made, dump);
                // hang alone: it is what time settles, and 'analyze' exits 1 here for ctororder's known false alarm (above).
                Diagext.Result result = Diagext.Run("hang", dump, "--json");
                TestContext.Progress.WriteLine($"garnet dump {i + 1}: exit {result.ExitCode}; {string.Join("; ", result.Findings.Select(f => $"{f.GetProperty("kind")} [{f.GetProperty("severity")}]"))}");
                Assert.That(result.ExitCode, Is.Zero, $"dump {i + 1} of {Dumps}: {result.Stdout}{result.Stderr}");
                Assert.That(result.Findings.Select(f => f.GetProperty("severity").GetString()), Is.All.EqualTo("information"), $"dump {i + 1}: {result.Stdout}");
                notes += result.Findings.Count();
                kept.Enqueue(dump);
                if (kept.Count > 3)
                    File.Delete(kept.Dequeue());
            }
            Diagext.Result series = Diagext.Run("analyze", folder, "--json", "--quiet");
            Assert.That(series.ExitCode, Is.AnyOf(0, 1), series.Stdout + series.Stderr);
            JsonElement s = series.Json.GetProperty("series").EnumerateArray().Single();
            Assert.That(s.GetProperty("dumps").GetArrayLength(), Is.EqualTo(3));
            Assert.That(s.GetProperty("findings").EnumerateArray(), Is.Empty);
            Assert.That(series.Findings.Where(f => f.GetProperty("detector").GetString() == "hang").Select(f => f.GetProperty("severity").GetString()), Is.All.EqualTo("information"));
            TestContext.Progress.WriteLine($"garnet: {Dumps} dumps under load, no hang warning, {notes} hang notes; series of the last 3: moved {s.GetProperty("moved")}");
        }
        finally
        {
            stop.Cancel();
            Directory.Delete(folder, recursive: true);
        }
        foreach (RedisBenchmark run in load.Result)
            run.AssertCompleted("while the server was dumped 20 times");
    }
}
