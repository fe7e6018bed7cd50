using System.Text.Json;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Hang;

/// <summary>
/// A dump series of Windows minidumps: samples/Hangs "chain" (win-x64) under Wine, dumped twice about 3 s apart by
/// Microsoft's engine (.dump /ma). Ground truth, from the sample's code and the minidump format, written before
/// diagext ran on them: the holder sleeps forever holding AccountLock, "second" waits for it holding LedgerLock, "third"
/// waits for LedgerLock; nothing moves. Each minidump carries its own time (the header's TimeDateStamp, to the second)
/// and the process's id and start time (MiscInfo), so the two are one series ordered by their headers, whatever their
/// names, and the chain is a stuck-chain hazard naming the three threads. A Windows .NET dump's DAC runs only on
/// Windows, so the batch runs as a Windows user runs it: the win-x64 diagext of the WinDbg package, under Wine.
/// </summary>
[TestFixture]
[Category(TestKind.Windows)]
public class WindowsSeriesTests
{
    [Test]
    public void Two_minidumps_of_a_stuck_chain_are_a_series_ordered_by_their_headers()
    {
        string folder = WorkFolder.Fresh("series", "windows-chain");
        // Named against their order, so only the headers can order them.
        string first = Path.Combine(folder, "b-later-name.dmp"), second = Path.Combine(folder, "a-earlier-name.dmp");
        (SampleProcess sample, int pid) = WindowsSample.Start("Hangs", TimeSpan.FromMinutes(3), ["chain"]);
        string output;
        using (sample)
        {
            output = sample.Output;
            foreach (string dump in new[] { first, second })
            {
                if (dump == second)
                    Thread.Sleep(3000);
                EngineHost.Session attach = EngineHost.Attach(pid, [$".dump /ma /o {WinePrefix.WindowsPath(dump)}"]);
                Assert.That(File.Exists(dump), Is.True, $"the engine wrote no dump:\n{attach.Raw}");
            }
        }
        string diagext = Path.Combine(WinDbgPackage.Folder, "x64", "diagext", "diagext.exe");
        ProcessRunner.Result run = WinePrefix.Run(diagext, ["analyze", WinePrefix.WindowsPath(folder), "--json", "--quiet"], TimeSpan.FromMinutes(5));
        var result = new Diagext.Result(run.ExitCode, run.Stdout, run.Stderr);
        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stdout + result.Stderr);
        JsonElement s = result.Json.GetProperty("series").EnumerateArray().Single();
        Assert.That(s.GetProperty("process").GetString(), Does.StartWith($"pid {pid} ").And.Contain("started "), "id and start time from MiscInfo");
        Assert.That(s.GetProperty("timeSource").GetString(), Does.Contain("headers"));
        Assert.That(s.GetProperty("dumps").EnumerateArray().Select(d => Path.GetFileName(d.GetProperty("name").GetString()!.Replace('\\', '/'))),
            Is.EqualTo(new[] { Path.GetFileName(first), Path.GetFileName(second) }), "ordered by the headers' times");
        Assert.That(s.GetProperty("spanSeconds").GetDouble(), Is.InRange(1.0, 60.0));
        JsonElement stuck = s.GetProperty("findings").EnumerateArray().Single();
        Assert.That(stuck.GetProperty("kind").GetString(), Is.EqualTo("stuck-chain"));
        var expected = new HangSample.Dump("", output).Threads.Select(t => t.ManagedId).ToList();
        Assert.That(stuck.GetProperty("threads").EnumerateArray().Select(t => t.GetProperty("managedThreadId").GetInt32()), Is.EquivalentTo(expected), output);
        TestContext.Progress.WriteLine($"windows series: {stuck.GetProperty("summary").GetString()}");
    }
}
