using System.Diagnostics;
using System.Text.Json;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.DictCycle;

/// <summary>
/// --no-suspend, as the WinDbg extension runs diagext on a live process its debugger has already stopped:
/// diagext reads the stopped process as it is and leaves it stopped (it neither suspends nor resumes it).
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class DictCycleStoppedProcessTests
{
    [Test]
    public void A_process_stopped_by_someone_else_is_read_and_left_stopped()
    {
        using SampleProcess sample = SampleProcess.StartAndWaitReady(SampleBuilder.Build("DictCycle"), [], TimeSpan.FromMinutes(3));
        Signal("STOP", sample.Pid);
        try
        {
            Diagext.Result result = Diagext.Run("dictcycle", "--pid", sample.Pid.ToString(), "--no-suspend", "--json");

            Assert.That(result.ExitCode, Is.EqualTo(1), result.Stderr);
            Assert.That(result.Findings.Select(f => f.TryGetProperty("holder", out JsonElement h) ? h.GetString() : null), Has.Member("DictionaryTarget.Dict"));
            Assert.That(State(sample.Pid), Is.EqualTo('T'), "still stopped");
        }
        finally
        {
            Signal("CONT", sample.Pid);
        }
    }

    private static char State(int pid) => File.ReadAllText($"/proc/{pid}/stat").Split(')')[1].Trim()[0];

    private static void Signal(string name, int pid)
    {
        using Process kill = Process.Start("kill", ["-" + name, pid.ToString()]);
        kill.WaitForExit();
    }
}
