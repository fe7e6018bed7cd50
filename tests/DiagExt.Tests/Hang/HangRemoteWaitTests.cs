using System.Text.Json;
using System.Text.RegularExpressions;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Hang;

/// <summary>
/// hang on threads and requests waiting on servers that accept and never answer (issue 40 part 3, remote-wait). The
/// ground truth, written before diagext was first run on these programs:
/// - samples/Hangs remote: two loopback listeners of the sample ("remote NAME 127.0.0.1:PORT"). "silent": recv1 and
///   recv2 in a sync Socket.Receive with no receive timeout, http1 and http2 in .Result on HttpClient.GetStringAsync
///   with Timeout = InfiniteTimeSpan, and 3 more such requests no thread waits for ("async silent 3"): one hazard naming
///   127.0.0.1:PORT, 4 threads, 3 requests, no timeout, the clients HttpClient and Socket (from one dump a note that
///   says what settles it, timeSettles; two dumps of the process analysed together: the hazard, "stuck for at least"). "slow": "timed" in .Result
///   on an HttpClient with Timeout = 100 s: one note, 1 thread, 0 requests, timeout 100 s. The listeners' threads (in
///   a sync Accept) and the accepted sockets (the server's side) are not named; no other finding.
/// - samples/NpgsqlHang (Npgsql 10.0.3): its GROUND-TRUTH.md, written before the run: a hazard on the "stuck" server
///   (Timeout=0: threads "open", sync, and "open-async", OpenAsync().GetResult(); library Npgsql, no timeout) and a
///   note on the "timed" one (Timeout=100: "open-timed", the socket's receive timeout just under 100 s).
/// - live (hang --pid): remote is still the hazard on "silent", its threads "still blocked"; remotehealthy (a loopback
///   server answering at once, threads looping on HttpClient .Result and sync Send/Receive, no timeouts) gives no
///   remote-wait: its threads move while watched. (One dump of remotehealthy does report its requests in flight as a
///   hazard until the lead made one dump's unbounded remote wait a note, as issue 42 made one dump's chain: a dump cannot
///   tell them from a server that stopped answering; now exit 0.)
/// - the healthy modes (no sockets) give no remote-wait: <see cref="HangDeadlockTests.A_busy_contended_healthy_process_gives_no_warning"/>
///   checks they give no finding but a blocked chain's note (one dump cannot tell it from contention).
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class HangRemoteWaitTests
{
    private static IEnumerable<TestCaseData> Runs() => HangSample.AllRuns.Select(r => new TestCaseData(r).SetArgDisplayNames($"run {r}"));

    private static string Endpoint(string output, string server) => Regex.Match(output, $@"^remote {server} (\S+)$", RegexOptions.Multiline).Groups[1].Value;

    private static int Managed(JsonElement thread) => thread.GetProperty("managedThreadId").GetInt32();

    private static JsonElement[] RemoteWaits(Diagext.Result result, string output, int exitCode = 0)
    {
        Assert.That(result.ExitCode, Is.EqualTo(exitCode), result.Stdout + result.Stderr);
        JsonElement[] findings = result.Findings.ToArray();
        Assert.That(findings.Select(f => f.GetProperty("kind").GetString()), Is.All.EqualTo("remote-wait"), output);
        return findings;
    }

    private static JsonElement At(JsonElement[] findings, string endpoint) =>
        findings.Single(f => f.GetProperty("remote").GetProperty("endpoint").GetString() == endpoint);

    [TestCaseSource(nameof(Runs))]
    public void A_server_that_never_answers_is_named_with_its_waiting_threads_requests_and_timeout(int run)
    {
        HangSample.Dump dump = HangSample.Of("remote", run);
        string silent = Endpoint(dump.Output, "silent"), slow = Endpoint(dump.Output, "slow");
        Assert.That(silent, Does.Match(@"^127\.0\.0\.1:\d+$"), dump.Output);
        int pending = int.Parse(Regex.Match(dump.Output, @"^async silent (\d+)$", RegexOptions.Multiline).Groups[1].Value);
        JsonElement[] findings = RemoteWaits(Diagext.Run("hang", dump.Path, "--json"), dump.Output);
        Assert.That(findings, Has.Length.EqualTo(2));

        JsonElement hazard = At(findings, silent);
        JsonElement remote = hazard.GetProperty("remote");
        // One dump: a note that says what settles it (a healthy client under load looks the same).
        Assert.That(hazard.GetProperty("severity").GetString(), Is.EqualTo("information"));
        Assert.That(hazard.GetProperty("timeSettles").GetBoolean(), Is.True);
        Assert.That(remote.GetProperty("threads").GetInt32(), Is.EqualTo(4));
        Assert.That(remote.GetProperty("requests").GetInt32(), Is.EqualTo(pending));
        Assert.That(remote.GetProperty("timeout").GetString(), Is.EqualTo("none"));
        Assert.That(remote.GetProperty("library").GetString()!.Split(", "), Is.EquivalentTo(new[] { "HttpClient", "Socket" }));
        Assert.That(hazard.GetProperty("title").GetString(), Is.EqualTo($"4 threads and {pending} requests wait on {silent} (HttpClient, Socket), no timeout"));
        JsonElement[] threads = hazard.GetProperty("threads").EnumerateArray().ToArray();
        Assert.That(threads.Select(Managed), Is.EquivalentTo(dump.Threads.Where(t => t.Waits == "silent").Select(t => t.ManagedId)));
        foreach (string name in new[] { "recv1", "recv2" })
        {
            JsonElement thread = threads.Single(t => Managed(t) == dump.Thread(name).ManagedId);
            Assert.That(thread.GetProperty("role").GetString(), Is.EqualTo($"blocked in a sync socket receive on {silent} (Socket)"));
            Assert.That(thread.GetProperty("frame").GetString(), Is.EqualTo("Socket.Receive"));
        }
        foreach (string name in new[] { "http1", "http2" })
            Assert.That(threads.Single(t => Managed(t) == dump.Thread(name).ManagedId).GetProperty("role").GetString(),
                Is.EqualTo($"blocked on a task awaiting a socket receive on {silent} (HttpClient)"));
        string[] evidence = hazard.GetProperty("evidence").EnumerateArray().Select(e => e.GetString()!).ToArray();
        Assert.That(evidence.Count(e => e.StartsWith("request: receive pending on Socket 0x", StringComparison.Ordinal)
            && e.EndsWith("awaited by async HttpConnection.InitialFillAsync, no thread blocked on it, no timeout (HttpClient.Timeout is infinite)", StringComparison.Ordinal)), Is.EqualTo(pending));
        Assert.That(evidence.Count(e => e.Contains("no timeout (the socket's receive timeout is infinite)", StringComparison.Ordinal)), Is.EqualTo(2), "read from the socket itself");

        JsonElement note = At(findings, slow);
        Assert.That(note.GetProperty("severity").GetString(), Is.EqualTo("information"));
        Assert.That(note.GetProperty("remote").GetProperty("threads").GetInt32(), Is.EqualTo(1));
        Assert.That(note.GetProperty("remote").GetProperty("requests").GetInt32(), Is.Zero);
        Assert.That(note.GetProperty("remote").GetProperty("timeout").GetString(), Is.EqualTo("value"));
        Assert.That(note.GetProperty("remote").GetProperty("timeoutSeconds").GetDouble(), Is.EqualTo(100));
        Assert.That(note.GetProperty("title").GetString(), Is.EqualTo($"1 thread waits on {slow} (HttpClient), timeout 100 s"));
        Assert.That(note.GetProperty("threads").EnumerateArray().Select(Managed).Single(), Is.EqualTo(dump.Thread("timed").ManagedId));
    }

    [Test]
    public void Live_a_silent_server_is_still_the_hazard_and_a_busy_answering_one_is_nothing()
    {
        using (SampleProcess hung = SampleProcess.StartAndWaitReady(SampleBuilder.Build("Hangs"), ["remote"], TimeSpan.FromMinutes(2), detached: true))
        {
            Diagext.Result result = Diagext.Run("hang", "--pid", hung.Pid.ToString(), "--json");
            JsonElement hazard = At(RemoteWaits(result, hung.Output, exitCode: 1), Endpoint(hung.Output, "silent"));
            Assert.That(hazard.GetProperty("severity").GetString(), Is.EqualTo("hazard"));
            Assert.That(hazard.GetProperty("progress").GetString(), Does.StartWith("still blocked after 1.0 s, no CPU used"));
        }
        using SampleProcess busy = SampleProcess.StartAndWaitReady(SampleBuilder.Build("Hangs"), ["remotehealthy"], TimeSpan.FromMinutes(2), detached: true);
        Diagext.Result healthy = Diagext.Run("hang", "--pid", busy.Pid.ToString(), "--json");
        Assert.That(healthy.Findings.Select(f => f.GetProperty("kind").GetString()), Has.None.EqualTo("remote-wait"), healthy.Stdout);
        Assert.That(busy.HasExited, Is.False);
    }

    [TestCaseSource(nameof(Runs))]
    public void Npgsql_opening_on_a_server_that_never_answers_is_the_finding_its_ground_truth_says(int run)
    {
        DumpMaker.SampleDump made = DumpMaker.DumpOfSampleWithOutput("NpgsqlHang", null, $"hang-npgsql-{run}.core");
        var dump = new HangSample.Dump(made.Path, made.Output);
        string stuck = Endpoint(dump.Output, "stuck"), timed = Endpoint(dump.Output, "timed");
        JsonElement[] findings = RemoteWaits(Diagext.Run("hang", dump.Path, "--json"), dump.Output);
        Assert.That(findings, Has.Length.EqualTo(2));

        JsonElement hazard = At(findings, stuck);
        JsonElement remote = hazard.GetProperty("remote");
        Assert.That(hazard.GetProperty("severity").GetString(), Is.EqualTo("information"), "one dump: a note time settles");
        Assert.That(hazard.GetProperty("timeSettles").GetBoolean(), Is.True);
        Assert.That(remote.GetProperty("library").GetString(), Is.EqualTo("Npgsql"));
        Assert.That(remote.GetProperty("threads").GetInt32(), Is.EqualTo(2));
        Assert.That(remote.GetProperty("requests").GetInt32(), Is.Zero);
        Assert.That(remote.GetProperty("timeout").GetString(), Is.EqualTo("none"));
        JsonElement[] threads = hazard.GetProperty("threads").EnumerateArray().ToArray();
        Assert.That(threads.Select(Managed), Is.EquivalentTo(new[] { dump.Thread("open").ManagedId, dump.Thread("open-async").ManagedId }), dump.Output);
        Assert.That(threads.Single(t => Managed(t) == dump.Thread("open").ManagedId).GetProperty("callerFrame").GetString(), Does.StartWith("NpgsqlReadBuffer"));
        Assert.That(threads.Single(t => Managed(t) == dump.Thread("open-async").ManagedId).GetProperty("role").GetString(),
            Is.EqualTo($"blocked on a task awaiting a socket receive on {stuck} (Npgsql)"));

        JsonElement note = At(findings, timed);
        Assert.That(note.GetProperty("severity").GetString(), Is.EqualTo("information"));
        Assert.That(note.GetProperty("remote").GetProperty("library").GetString(), Is.EqualTo("Npgsql"));
        Assert.That(note.GetProperty("remote").GetProperty("timeout").GetString(), Is.EqualTo("value"));
        Assert.That(note.GetProperty("remote").GetProperty("timeoutSeconds").GetDouble(), Is.InRange(90, 100));
        Assert.That(note.GetProperty("threads").EnumerateArray().Select(Managed).Single(), Is.EqualTo(dump.Thread("open-timed").ManagedId));
    }

    /// <summary>Two dumps of the process seconds apart settle it: the same threads waiting unchanged on the silent server is the hazard.</summary>
    [Test]
    public void Two_dumps_of_a_silent_server_make_the_unbounded_wait_a_hazard_with_the_time()
    {
        DumpSeriesMaker.Series series = DumpSeriesMaker.Of("Hangs", "remote", 2, TimeSpan.FromSeconds(3));
        string silent = Endpoint(series.Output, "silent");
        Diagext.Result result = Diagext.Run("analyze", series.Dumps[0], series.Dumps[1], "--json", "--quiet");
        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stdout + result.Stderr);
        JsonElement stuck = result.Json.GetProperty("series").EnumerateArray().Single().GetProperty("findings").EnumerateArray()
            .Single(f => f.GetProperty("kind").GetString() == "remote-wait");
        Assert.That(stuck.GetProperty("severity").GetString(), Is.EqualTo("hazard"));
        Assert.That(stuck.GetProperty("remote").GetProperty("endpoint").GetString(), Is.EqualTo(silent));
        Assert.That(stuck.GetProperty("title").GetString(), Does.Match(@"no timeout: stuck for at least \d+\.\d s across 2 dumps$"));
    }

    /// <summary>Issue 40: a healthy client under load gives nothing that fails a run; one dump of it is at most a note.</summary>
    [Test]
    public void One_dump_of_a_client_whose_server_answers_exits_zero()
    {
        DumpMaker.SampleDump made = DumpMaker.DumpOfSampleWithOutput("Hangs", null, "hang-remotehealthy-1.core", "remotehealthy");
        Diagext.Result result = Diagext.Run("hang", made.Path, "--json");
        Assert.That(result.ExitCode, Is.Zero, result.Stdout + result.Stderr);
        Assert.That(result.Findings.Where(f => f.GetProperty("kind").GetString() == "remote-wait").Select(f => f.GetProperty("severity").GetString()),
            Is.All.EqualTo("information"));
    }
}
