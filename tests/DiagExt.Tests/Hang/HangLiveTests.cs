using System.Text.Json;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Hang;

/// <summary>
/// 'diagext hang --pid' on running samples/Hangs: it watches the process for a second before reading it, says the
/// blocked threads did not move (no CPU, the same wait), and leaves the process running, traced by no one.
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class HangLiveTests
{
    [TestCase("monitor3", "deadlock")]
    [TestCase("lock3", "deadlock")]
    [TestCase("rwlock", "deadlock")]
    [TestCase("starvation", "threadpool-starvation")]
    [TestCase("taskwait", "deadlock")]
    public void A_live_hang_is_still_blocked_after_a_second_and_the_process_keeps_running(string mode, string kind)
    {
        using SampleProcess sample = SampleProcess.StartAndWaitReady(SampleBuilder.Build("Hangs"), [mode], TimeSpan.FromMinutes(2), detached: true);
        Diagext.Result result = Diagext.Run("hang", "--pid", sample.Pid.ToString(), "--json");
        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stdout + result.Stderr);
        JsonElement finding = result.Findings.Single();
        Assert.That(finding.GetProperty("kind").GetString(), Is.EqualTo(kind));
        Assert.That(finding.GetProperty("progress").GetString(), Does.StartWith("still blocked after 1.0 s, no CPU used"));
        Assert.That(finding.GetProperty("threads").EnumerateArray().All(t => t.GetProperty("recentCpuShare").GetDouble() == 0), Is.True, "none of the named threads ran");
        // A hung process uses no CPU, so "running" here is: alive, no thread stopped, none traced (diagext let go).
        Assert.That(sample.HasExited, Is.False);
        Assert.That(ProcState.States(sample.Pid).Values, Has.None.AnyOf('T', 't'));
        Assert.That(ProcState.AnyThreadTraced(sample.Pid), Is.False);
    }

    /// <summary>
    /// Issue 40's causes, live: a SynchronizationContext deadlock (two, one per pumped context), a finalizer blocked on
    /// a Monitor, and a Monitor -> pthread mutex cycle (samples/NativeLocks, its helper libraries built by the sample)
    /// are named with the same "still blocked" evidence, and the process keeps running.
    /// </summary>
    [TestCase("Hangs", "synccontext", "context-deadlock")]
    [TestCase("Hangs", "finalizer", "blocked-finalizer")]
    [TestCase("NativeLocks", "nativemutex", "deadlock")]
    public void Issue_40s_causes_are_named_live(string sampleName, string mode, string kind)
    {
        using SampleProcess sample = SampleProcess.StartAndWaitReady(SampleBuilder.Build(sampleName), [mode], TimeSpan.FromMinutes(2), detached: true);
        Diagext.Result result = Diagext.Run("hang", "--pid", sample.Pid.ToString(), "--json");
        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stdout + result.Stderr);
        JsonElement[] found = [.. result.Findings.Where(f => f.GetProperty("kind").GetString() == kind)];
        Assert.That(found, Is.Not.Empty, result.Stdout);
        Assert.That(found.Select(f => f.GetProperty("severity").GetString()), Is.All.EqualTo("hazard"));
        Assert.That(found.Select(f => f.GetProperty("progress").GetString()), Is.All.StartWith("still blocked after 1.0 s, no CPU used"));
        Assert.That(sample.HasExited, Is.False);
        Assert.That(ProcState.AnyThreadTraced(sample.Pid), Is.False);
    }

    /// <summary>
    /// The verdict a dump series gives, live: the chain sample (nothing moves) is a stuck-chain hazard after the second
    /// diagext watches it; the contended one (its holder lets go within milliseconds) gives no warning, and when a chain
    /// was caught, says what moved.
    /// </summary>
    [Test]
    public void A_live_chain_that_does_not_move_is_stuck_and_one_that_moves_is_no_warning()
    {
        using (SampleProcess chain = SampleProcess.StartAndWaitReady(SampleBuilder.Build("Hangs"), ["chain"], TimeSpan.FromMinutes(2), detached: true))
        {
            Diagext.Result result = Diagext.Run("hang", "--pid", chain.Pid.ToString(), "--json");
            Assert.That(result.ExitCode, Is.EqualTo(1), result.Stdout + result.Stderr);
            JsonElement finding = result.Findings.Single();
            Assert.That(finding.GetProperty("kind").GetString(), Is.EqualTo("stuck-chain"));
            Assert.That(finding.GetProperty("severity").GetString(), Is.EqualTo("hazard"));
            Assert.That(finding.GetProperty("title").GetString(), Does.EndWith("stuck for at least 1.0 s (live)"));
            Assert.That(chain.HasExited, Is.False);
        }
        using SampleProcess contended = SampleProcess.StartAndWaitReady(SampleBuilder.Build("Hangs"), ["contended"], TimeSpan.FromMinutes(2), detached: true);
        Diagext.Result busy = Diagext.Run("hang", "--pid", contended.Pid.ToString(), "--json");
        Assert.That(busy.ExitCode, Is.Zero, busy.Stdout + busy.Stderr);
        foreach (JsonElement note in busy.Findings)
        {
            Assert.That(note.GetProperty("severity").GetString(), Is.EqualTo("information"), note.ToString());
            Assert.That(note.GetProperty("progress").GetString(), Does.StartWith("moved: "), note.ToString());
        }
        var (running, why) = ProcState.RunsFreely(contended.Pid, TimeSpan.FromMilliseconds(500));
        Assert.That(running, Is.True, why);
    }

    [Test]
    public void A_busy_healthy_process_gives_no_finding_live()
    {
        using SampleProcess sample = SampleProcess.StartAndWaitReady(SampleBuilder.Build("Hangs"), ["healthy"], TimeSpan.FromMinutes(2), detached: true);
        Diagext.Result result = Diagext.Run("hang", "--pid", sample.Pid.ToString(), "--json");
        Assert.That(result.ExitCode, Is.Zero, result.Stdout + result.Stderr);
        // A contended lock may show a chain at the moment of the read: a note, never a warning, and it moved.
        Assert.That(result.Findings.Select(f => f.GetProperty("severity").GetString()), Is.All.EqualTo("information"), result.Stdout);
        var (running, why) = ProcState.RunsFreely(sample.Pid, TimeSpan.FromMilliseconds(500));
        Assert.That(running, Is.True, why);
    }
}
