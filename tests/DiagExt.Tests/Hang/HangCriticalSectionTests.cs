using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Hang;

/// <summary>
/// Issue 40: Windows critical sections join the wait-for graph. samples/Hangs (win-x64) in "criticalsection" mode runs
/// under Wine: "cs-holder" enters a Win32 critical section and waits on CacheLock (a Monitor); "cs-caller" holds
/// CacheLock and calls EnterCriticalSection through a P/Invoke. Microsoft's engine writes the full dump and !hang runs
/// on it there (a Windows DAC runs only on Windows, i.e. under Wine here). Ground truth is what the sample printed
/// (the section's address, which managed thread holds and waits for what): one deadlock of both threads naming the
/// critical section and the Monitor, the section's owner the holder.
/// </summary>
[TestFixture]
[Category(TestKind.Windows)]
public class HangCriticalSectionTests
{
    private WindowsHangDump.Made _made = null!;
    private EngineHost.Session _session = null!;

    private static string Load => $".load {WinePrefix.WindowsPath(WinDbgPackage.Extension("x64"))}";

    [OneTimeSetUp]
    public void DumpAndAnalyse()
    {
        _made = WindowsHangDump.Of("criticalsection");
        _session = EngineHost.OpenDump(_made.Path, [Load, "!hang"]);
        TestContext.Progress.WriteLine($"Hangs criticalsection under Wine: pid {_made.WindowsPid}, dump {new FileInfo(_made.Path).Length / (1 << 20)} MB");
    }

    private string Report => _session["!hang"].Dml;

    /// <summary>The OS id of the thread the report says waits on CacheLock (the section's holder, by the sample's design).</summary>
    private uint Holder => uint.Parse(System.Text.RegularExpressions.Regex.Match(Report, @"\[0x([0-9a-f]+)\]s; !clrstack"">0x\1</link> \(managed \d+\) holds CRITICAL_SECTION").Groups[1].Value,
        System.Globalization.NumberStyles.HexNumber);

    [Test]
    public void The_mixed_cycle_is_one_deadlock_naming_the_critical_section()
    {
        Assert.That(_session.Opened, Is.True, _session.Raw);
        Assert.That(_session["!hang"].Errors, Is.Empty, _session.Raw);
        string section = _made.GroundTruth.Split('\n').Single(l => l.StartsWith("critical section at ", StringComparison.Ordinal))["critical section at ".Length..].Trim();
        Assert.That(Report, Does.Contain("[hang] Deadlock: 2 threads wait for each other").And.Contain("critical section").And.Contain("Monitor"), Report);
        Assert.That(Report, Does.Contain($"CRITICAL_SECTION <link cmd=\"dq {section} L8\">{section}</link>"), "a native lock links to its memory, not to !DumpObj\n" + Report);
        Assert.That(Report, Does.Contain($"OwningThread 0x{Holder:x}"), Report);
        Assert.That(DmlChecker.Problems(Report), Is.Empty, Report);
    }

    [Test]
    public void Both_threads_of_the_ground_truth_are_in_the_cycle()
    {
        string[] members = _made.GroundTruth.Split('\n').Where(l => l.StartsWith("thread cs-", StringComparison.Ordinal)).Select(l => l.Split(' ')[3]).ToArray();
        Assert.That(members, Has.Length.EqualTo(2), _made.GroundTruth);
        foreach (string managed in members)
            Assert.That(Report, Does.Contain($"(managed {managed})"), $"managed thread {managed}\n{Report}");
    }
}
