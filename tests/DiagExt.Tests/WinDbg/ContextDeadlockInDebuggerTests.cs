using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.WinDbg;

/// <summary>
/// Issue 40: !hang inside Microsoft's engine on a Windows dump of "don't block on async code": samples/Hangs (win-x64)
/// in "synccontext" mode under Wine, where two threads each pump a single-threaded SynchronizationContext and block in
/// .Result on an async method whose continuation needs that context. Ground truth (the sample's own lines): both
/// managed threads are named, each in a context-deadlock finding, with links to their stacks and to the objects.
/// </summary>
[TestFixture]
[Category(TestKind.Windows)]
public class ContextDeadlockInDebuggerTests
{
    private WindowsHangDump.Made _made = null!;
    private EngineHost.Session _session = null!;

    private static string Load => $".load {WinePrefix.WindowsPath(WinDbgPackage.Extension("x64"))}";

    [OneTimeSetUp]
    public void DumpAndAnalyse()
    {
        _made = WindowsHangDump.Of("synccontext");
        _session = EngineHost.OpenDump(_made.Path, [Load, "!hang"]);
        TestContext.Progress.WriteLine($"Hangs synccontext under Wine: pid {_made.WindowsPid}, dump {new FileInfo(_made.Path).Length / (1 << 20)} MB");
    }

    [Test]
    public void Both_context_deadlocks_are_printed_with_links()
    {
        Assert.That(_session.Opened, Is.True, _session.Raw);
        EngineHost.Command report = _session["!hang"];
        Assert.That(report.Errors, Is.Empty, _session.Raw);
        string dml = report.Dml;
        Assert.That(System.Text.RegularExpressions.Regex.Matches(dml, @"\[hang\] SynchronizationContext deadlock: thread ").Count, Is.EqualTo(2), dml);
        Assert.That(DmlChecker.Problems(dml), Is.Empty, dml);
        Assert.That(DmlChecker.LinkCommands(dml), Has.Some.StartsWith("!DumpObj /d 0x").And.Some.StartsWith("~~[0x"), dml);
        string[] managed = _made.GroundTruth.Split('\n').Where(l => l.StartsWith("thread ", StringComparison.Ordinal)).Select(l => l.Split(' ')[3]).Distinct().ToArray();
        Assert.That(managed, Has.Length.EqualTo(2), _made.GroundTruth);
        foreach (string id in managed)
            Assert.That(dml, Does.Contain($"(managed {id})"), $"managed thread {id}\n{dml}");
    }
}
