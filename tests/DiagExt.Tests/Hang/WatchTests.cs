using System.Diagnostics;
using System.Text.Json;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Hang;

/// <summary>
/// 'diagext watch' on running samples/Hangs. Ground truth, from the samples' code, written before watch ran on them:
/// - late 4: contended work for 4 s, then "transfer" and "audit" take AccountLock and LedgerLock in opposite order and
///   deadlock for good (each prints its managed id). watch: exit 1 after the deadlock is there in two looks running, one
///   dump in the dump folder, its report a deadlock naming exactly those two managed threads.
/// - chain: nothing ever moves. watch: exit 1, a dump, and a stuck-chain hazard naming holder, second and third.
/// - contended: a holder lets go within milliseconds. watch --timeout 8s: exit 0, no dump, the process running freely.
/// - Ctrl+C while watching: exit 130, the process running freely and traced by no one.
/// - No process, a zero interval, a dump folder that does not exist: exit 2, one line.
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class WatchTests
{
    private static string DumpFolder(string name) => WorkFolder.Fresh("watch", name);

    [Test]
    public void Watch_catches_a_late_deadlock_dumps_it_and_names_both_threads()
    {
        using SampleProcess sample = SampleProcess.StartAndWaitReady(SampleBuilder.Build("Hangs"), ["late", "4"], TimeSpan.FromMinutes(2), detached: true);
        string folder = DumpFolder("late");
        Diagext.Result result = Diagext.Run("watch", "--pid", sample.Pid.ToString(), "--interval", "1s", "--dump-dir", folder, "--timeout", "60s", "--json");
        try
        {
            Assert.That(result.ExitCode, Is.EqualTo(1), result.Stdout + result.Stderr);
            string dump = Directory.GetFiles(folder).Single();
            Assert.That(Path.GetFileName(dump), Does.Match(@"^Hangs_\d+_\d{10}\.core$"));
            Assert.That(result.Stderr, Does.Contain("seen in two looks running").And.Contain($"wrote {dump}"));
            Assert.That(sample.Output, Does.Contain("DEADLOCKED"), "the sample deadlocked before watch dumped it");
            var expected = new HangSample.Dump("", sample.Output).Threads.Select(t => t.ManagedId).ToList();
            JsonElement deadlock = result.Findings.Single(f => f.GetProperty("kind").GetString() == "deadlock");
            Assert.That(deadlock.GetProperty("cycle").EnumerateArray().Select(s => s.GetProperty("managedThreadId").GetInt32()), Is.EquivalentTo(expected), sample.Output);
            Assert.That(result.Json.GetProperty("target").GetProperty("name").GetString(), Is.EqualTo(dump));
            Assert.That(sample.HasExited, Is.False);
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    [Test]
    public void Watch_makes_a_chain_that_never_moves_a_stuck_chain()
    {
        using SampleProcess sample = SampleProcess.StartAndWaitReady(SampleBuilder.Build("Hangs"), ["chain"], TimeSpan.FromMinutes(2), detached: true);
        string folder = DumpFolder("chain");
        Diagext.Result result = Diagext.Run("watch", "--pid", sample.Pid.ToString(), "--interval", "1s", "--dump-dir", folder, "--timeout", "60s", "--json");
        try
        {
            Assert.That(result.ExitCode, Is.EqualTo(1), result.Stdout + result.Stderr);
            Assert.That(Directory.GetFiles(folder), Has.Length.EqualTo(1));
            JsonElement stuck = result.Findings.Single(f => f.GetProperty("kind").GetString() == "stuck-chain");
            Assert.That(stuck.GetProperty("severity").GetString(), Is.EqualTo("hazard"));
            Assert.That(stuck.GetProperty("title").GetString(), Does.Match(@"stuck behind thread 0x[0-9a-f]+ for at least \d+\.\d s across 2 samples"));
            var expected = new HangSample.Dump("", sample.Output).Threads.Select(t => t.ManagedId).ToList();
            Assert.That(stuck.GetProperty("threads").EnumerateArray().Select(t => t.GetProperty("managedThreadId").GetInt32()), Is.EquivalentTo(expected));
            Assert.That(stuck.GetProperty("locks").EnumerateArray().Select(l => l.GetProperty("path").GetString()), Has.Some.EqualTo("Hangs.BlockedChain.AccountLock"),
                "the dump's own reading of the chain, with the lock names a look leaves out");
            Assert.That(result.Findings.Count(f => f.GetProperty("kind").GetString() == "blocked-chain"), Is.Zero, "the dump's note was settled");
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    [Test]
    public void Watch_lets_a_busy_contended_process_run_to_the_timeout_with_no_dump()
    {
        using SampleProcess sample = SampleProcess.StartAndWaitReady(SampleBuilder.Build("Hangs"), ["contended"], TimeSpan.FromMinutes(2), detached: true);
        string folder = DumpFolder("contended");
        Diagext.Result result = Diagext.Run("watch", "--pid", sample.Pid.ToString(), "--interval", "1s", "--dump-dir", folder, "--timeout", "8s");
        Assert.That(result.ExitCode, Is.Zero, result.Stdout + result.Stderr);
        Assert.That(Directory.GetFiles(folder), Is.Empty);
        Assert.That(result.Stdout, Does.Match(@"no hang in \d+(\.\d)? s of watching process \d+ \(\d+ looks, 1 s apart\): no dump written"));
        Assert.That(result.Stderr, Does.Contain("watch: look 5"));
        var (running, why) = ProcState.RunsFreely(sample.Pid, TimeSpan.FromMilliseconds(500));
        Assert.That(running, Is.True, why);
    }

    [Test]
    public void Ctrl_c_ends_watch_with_130_and_leaves_the_process_running()
    {
        InterruptSignal.AssumeDeliverable();
        using SampleProcess sample = SampleProcess.StartAndWaitReady(SampleBuilder.Build("Hangs"), ["contended"], TimeSpan.FromMinutes(2), detached: true);
        string folder = DumpFolder("ctrl-c");
        var info = new ProcessStartInfo(Diagext.Executable) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (string a in new[] { "watch", "--pid", sample.Pid.ToString(), "--interval", "500ms", "--dump-dir", folder })
            info.ArgumentList.Add(a);
        using Process watch = Process.Start(info)!;
        Task<string> stderr = watch.StandardError.ReadToEndAsync();
        Thread.Sleep(3000);
        ProcessRunner.Run("kill", ["-INT", watch.Id.ToString()], TimeSpan.FromSeconds(10));
        Assert.That(watch.WaitForExit(TimeSpan.FromSeconds(30)), Is.True, "watch did not stop on Ctrl+C");
        Assert.That(watch.ExitCode, Is.EqualTo(130), stderr.Result);
        Assert.That(stderr.Result, Does.Contain("watch: look 2"), "it was watching");
        Assert.That(Directory.GetFiles(folder), Is.Empty);
        Assert.That(ProcState.AnyThreadTraced(sample.Pid), Is.False);
        var (running, why) = ProcState.RunsFreely(sample.Pid, TimeSpan.FromMilliseconds(500));
        Assert.That(running, Is.True, why);
    }

    [TestCase(new[] { "watch" }, "needs a process")]
    [TestCase(new[] { "watch", "--pid", "1", "--interval", "0s" }, "--interval")]
    [TestCase(new[] { "watch", "--pid", "1", "--dump-dir", "/no/such/folder" }, "no such folder")]
    [TestCase(new[] { "watch", "--pid", "999999999" }, "999999999")]
    public void Bad_input_to_watch_is_one_line_and_exit_2(string[] args, string said)
    {
        Diagext.Result result = Diagext.Run(args);
        Assert.That(result.ExitCode, Is.EqualTo(2), result.Stdout + result.Stderr);
        Assert.That(result.Stderr.Trim().Split('\n'), Has.Length.EqualTo(1), result.Stderr);
        Assert.That(result.Stderr, Does.Contain(said));
    }
}
