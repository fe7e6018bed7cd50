using System.Diagnostics;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Live;

/// <summary>
/// The target must keep running whatever happens to diagext while it is attached: killed outright (SIGKILL,
/// at several moments: while it stops the threads, while it reads them, while it lets them go), or
/// interrupted with Ctrl+C. With ClrMD's own PTRACE_ATTACH a kill during the attach left the whole process
/// stopped (state T) for good; these tests pin the fix.
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class AttachKillTests
{
    private SampleProcess _sample = null!;

    [OneTimeSetUp]
    public void StartSample() =>
        _sample = SampleProcess.StartAndWaitReady(SampleBuilder.Build("DictCycle"), [], TimeSpan.FromMinutes(3), detached: true);

    [OneTimeTearDown]
    public void StopSample() => _sample.Dispose();

    private Process StartDiagextAttach()
    {
        var info = new ProcessStartInfo(Diagext.Executable)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        info.ArgumentList.Add("attach");
        info.ArgumentList.Add(_sample.Pid.ToString());
        return Process.Start(info)!;
    }

    /// <summary>Waits (busy, it is a short window) until diagext traces the first thread of the sample.</summary>
    private bool WaitUntilTraced(Process diagext, int mainThread)
    {
        var watch = Stopwatch.StartNew();
        while (watch.Elapsed < TimeSpan.FromSeconds(30) && !diagext.HasExited)
            if (ProcState.Tracer(_sample.Pid, mainThread) == diagext.Id)
                return true;
        return false;
    }

    [TestCase(0)]
    [TestCase(1)]
    [TestCase(5)]
    [TestCase(20)]
    [TestCase(100)]
    [TestCase(300)]
    public void Killing_diagext_while_attached_leaves_the_target_running(int millisecondsAfterAttach)
    {
        int mainThread = _sample.Pid;
        using Process diagext = StartDiagextAttach();
        bool traced = WaitUntilTraced(diagext, mainThread);
        if (millisecondsAfterAttach > 0)
            Thread.Sleep(millisecondsAfterAttach);
        diagext.Kill();
        diagext.WaitForExit();
        Assert.That(traced, Is.True, "diagext never traced the sample");

        Thread.Sleep(200);
        var (running, why) = ProcState.RunsFreely(_sample.Pid, TimeSpan.FromMilliseconds(500));
        Assert.That(running, Is.True, why);
        Assert.That(_sample.HasExited, Is.False);
    }

    [Test]
    public void Ctrl_c_while_attached_lets_the_target_go()
    {
        InterruptSignal.AssumeDeliverable();
        using Process diagext = StartDiagextAttach();
        Assert.That(WaitUntilTraced(diagext, _sample.Pid), Is.True);
        ProcessRunner.Run("kill", ["-INT", diagext.Id.ToString()], TimeSpan.FromSeconds(10));
        Assert.That(diagext.WaitForExit(TimeSpan.FromSeconds(30)), Is.True, "diagext did not stop on Ctrl+C");
        Assert.That(diagext.ExitCode, Is.AnyOf(0, 1, 130), "a cancelled run, or one that finished first");

        var (running, why) = ProcState.RunsFreely(_sample.Pid, TimeSpan.FromMilliseconds(500));
        Assert.That(running, Is.True, why);
    }
}
