using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.WinDbg;

/// <summary>
/// !hang as a WinDbg user runs it on a real Windows .NET process: samples/Hangs (win-x64) runs under Wine in
/// "monitor3" mode (a three-thread Monitor cycle plus a bystander); Microsoft's engine attaches, writes a full dump
/// with .dump /ma, and !hang runs on that dump: the cycle as a chain in clean DML, with links to each thread's stack
/// and each lock object, the threads being ones the debugger lists.
/// </summary>
[TestFixture]
[Category(TestKind.Windows)]
public class HangInDebuggerTests
{
    private string _dump = null!;
    private string _groundTruth = "";
    private EngineHost.Session _dml = null!;

    private static string Load => $".load {WinePrefix.WindowsPath(WinDbgPackage.Extension("x64"))}";

    [OneTimeSetUp]
    public void DeadlockAttachDumpAndReopen()
    {
        WindowsHangDump.Made made = WindowsHangDump.Monitor3;
        _dump = made.Path;
        _groundTruth = made.GroundTruth;
        _dml = EngineHost.OpenDump(_dump, [Load, "!hang", "~"]);
        TestContext.Progress.WriteLine($"Hangs monitor3 under Wine: pid {made.WindowsPid}, dump {new FileInfo(_dump).Length / (1 << 20)} MB");
    }

    [Test]
    public void The_cycle_is_a_chain_with_thread_and_object_links()
    {
        EngineHost.Command report = _dml["!hang"];
        Assert.That(_dml.Opened, Is.True, _dml.Raw);
        Assert.That(report.Errors, Is.Empty, _dml.Raw);
        string dml = report.Dml;
        Assert.That(dml, Does.Contain("[hang] Deadlock: 3 threads wait for each other"), dml);
        Assert.That(DmlChecker.Problems(dml), Is.Empty, dml);
        IReadOnlyList<string> links = DmlChecker.LinkCommands(dml);
        Assert.That(links, Has.Some.StartsWith("!DumpObj /d 0x").And.Some.StartsWith("~~[0x"), dml);
        // The sample printed which managed threads hold and wait: each of the cycle's three is in the report.
        string[] members = _groundTruth.Split('\n').Where(l => l.StartsWith("thread ", StringComparison.Ordinal) && !l.Contains("bystander"))
            .Select(l => l.Split(' ')[3]).ToArray();
        Assert.That(members, Has.Length.EqualTo(3), _groundTruth);
        foreach (string managed in members)
            Assert.That(dml, Does.Contain($"(managed {managed})"), $"managed thread {managed}\n{dml}");
    }

    [Test]
    public void Thread_links_name_threads_the_debugger_knows()
    {
        IReadOnlySet<string> known = _dml["~"].ListedThreadIds;
        string[] linked = DmlChecker.LinkedThreadIds(_dml["!hang"].Dml).Distinct().ToArray(); // a thread is linked once per line naming it
        Assert.That(linked, Is.Not.Empty);
        Assert.That(linked, Is.SubsetOf(known), _dml["~"].ToString());
    }
}
