using System.Text.Json;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.DictCycle;

/// <summary>
/// dictcycle on a live process (--pid): the corrupt instance is found, the hammering threads come with the
/// CPU time /proc recorded for them (and how busy they were just before the attach), and the process runs on.
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class DictCycleLiveTests
{
    [Test]
    public void Live_process_gives_the_finding_with_cpu_times_and_keeps_running()
    {
        string exe = SampleBuilder.Build("DictCycle");
        // Detached: this test process itself attaches (in-process diagext), see SampleProcess.
        using SampleProcess sample = SampleProcess.StartAndWaitReady(exe, [], TimeSpan.FromMinutes(3), detached: true);
        Thread.Sleep(500); // let the hammer threads run up some CPU time

        // A hammer thread is inside the instance at the moment of the stop most of the time, not always: on a
        // busy machine some attaches find none, whichever way the threads are stopped (seen with ClrMD's
        // PTRACE_ATTACH and with PTRACE_SEIZE). Try up to 3 times.
        Diagext.Result result = null!;
        JsonElement finding = default;
        for (int attempt = 0; attempt < 3; attempt++)
        {
            result = Diagext.Run("dictcycle", "--pid", sample.Pid.ToString(), "--json");
            Assert.That(result.ExitCode, Is.EqualTo(1), result.Stderr);
            finding = result.Findings.Single(f => f.TryGetProperty("holder", out JsonElement h) && h.GetString() == "DictionaryTarget.Dict");
            if (finding.GetProperty("threads").GetArrayLength() > 0)
                break;
        }
        Assert.That(result.Json.GetProperty("target").GetProperty("kind").GetString(), Is.EqualTo("LiveProcess"));
        Assert.That(result.Json.GetProperty("target").GetProperty("cpuTimeSource").GetString(), Does.StartWith($"/proc/{sample.Pid}/task"));
        JsonElement[] threads = finding.GetProperty("threads").EnumerateArray().ToArray();
        Assert.That(threads, Is.Not.Empty);
        Assert.That(threads.All(t => t.TryGetProperty("userCpuSeconds", out _)), "live threads carry CPU time");
        Assert.That(threads.Max(t => t.GetProperty("userCpuSeconds").GetDouble() + t.GetProperty("kernelCpuSeconds").GetDouble()), Is.GreaterThan(0.05));
        // How busy depends on what else the machine runs; a spinning thread gets some CPU in the window.
        Assert.That(threads.Max(t => t.GetProperty("recentCpuShare").GetDouble()), Is.GreaterThan(0), "a hammer thread ran just before the attach");

        // Detached and resumed: the sample's threads keep burning CPU.
        double before = TotalCpuSeconds(sample.Pid);
        Thread.Sleep(500);
        Assert.That(sample.HasExited, Is.False);
        Assert.That(TotalCpuSeconds(sample.Pid), Is.GreaterThan(before));
        Assert.That(File.ReadAllText($"/proc/{sample.Pid}/stat").Split(')')[1].Trim()[0], Is.Not.EqualTo('T'), "not left stopped");
    }

    private static double TotalCpuSeconds(int pid)
    {
        string[] f = File.ReadAllText($"/proc/{pid}/stat").Split(')')[1].Split(' ', StringSplitOptions.RemoveEmptyEntries);
        return (double.Parse(f[11]) + double.Parse(f[12])) / 100.0;
    }
}
