using System.Text.Json;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.WcfHang;

/// <summary>wcfhang on the hung client while it runs (--pid): the same self-deadlock, and the client runs on afterwards.</summary>
[TestFixture]
[Category(TestKind.Dump)]
public class WcfHangLiveTests
{
    [Test]
    public void A_live_hung_client_gives_the_self_deadlock_and_keeps_running()
    {
        // Detached: this test process itself attaches (in-process diagext), see SampleProcess.
        using WcfHangSample.Running running = WcfHangSample.Start("apm", detachedClient: true);
        int pid = running.Client.Pid;

        Diagext.Result result = Diagext.Run("wcfhang", "--pid", pid.ToString(), "--json");

        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stderr);
        Assert.That(result.Json.GetProperty("target").GetProperty("kind").GetString(), Is.EqualTo("LiveProcess"));
        JsonElement finding = result.Findings.Single();
        Assert.That(finding.GetProperty("kind").GetString(), Is.EqualTo("self-deadlock"));
        Assert.That(finding.GetProperty("operation").GetString(), Is.EqualTo("Commit"));
        uint tid = finding.GetProperty("threads")[0].GetProperty("osThreadId").GetUInt32();
        Assert.That(Directory.Exists($"/proc/{pid}/task/{tid}"), $"thread {tid} is one of the client's");

        // Resumed, not left stopped: still alive and still hung (the hang is the client's own, not ours).
        Thread.Sleep(300);
        Assert.That(running.Client.HasExited, Is.False);
        Assert.That(File.ReadAllText($"/proc/{pid}/stat").Split(')')[1].Trim()[0], Is.Not.EqualTo('T'), "not left stopped");
        Assert.That(Diagext.Run("wcfhang", "--pid", pid.ToString(), "--json").Findings.Single().GetProperty("requestAddress").GetString(),
            Is.EqualTo(finding.GetProperty("requestAddress").GetString()), "a second look sees the same stuck request");
    }
}
