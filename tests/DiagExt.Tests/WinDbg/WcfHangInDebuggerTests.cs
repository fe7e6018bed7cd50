using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.WinDbg;

/// <summary>
/// !wcfhang as a WinDbg user runs it on a real Windows WCF client: samples/WcfHang serves net.tcp on 127.0.0.1 (the
/// Linux build), its win-x64 client runs under Wine in "apm" mode and hangs calling Commit inside BeginPrepare's
/// callback, on the channel's own receive thread. Microsoft's engine attaches to the client, runs !wcfhang live,
/// writes a full dump with .dump /ma, and !wcfhang runs again on that dump: a clean DML self-deadlock report whose
/// thread link names a thread the debugger lists, and whose links, run beside Microsoft's SOS, get SOS's answers.
/// </summary>
[TestFixture]
[Category(TestKind.Windows)]
public class WcfHangInDebuggerTests
{
    private string _dump = null!;
    private int _pid;
    private EngineHost.Session _live = null!;
    private EngineHost.Session _dml = null!;

    private static string Load => $".load {WinePrefix.WindowsPath(WinDbgPackage.Extension("x64"))}";

    [OneTimeSetUp]
    public void HangTheClientAttachDumpAndReopen()
    {
        _dump = Path.Combine(Repo.WorkDirectory, "dumps", "wcfhang-apm-windows.dmp");
        Directory.CreateDirectory(Path.GetDirectoryName(_dump)!);
        File.Delete(_dump);
        string extension = WinDbgPackage.Extension("x64");
        using SampleProcess server = WcfHangSample.StartServer(out string port);
        (SampleProcess client, _pid) = WindowsSample.Start("WcfHang", TimeSpan.FromMinutes(2), ["client", port, "apm"]);
        using (client)
        {
            Assert.That(client.Output, Does.Contain("hung: Commit waiting on the receive thread (managed thread "),
                $"the client under Wine did not hang:\n{client.Output}\nserver:\n{server.Output}");
            _live = EngineHost.Attach(_pid, [Load, "!wcfhang", $".dump /ma /o {WinePrefix.WindowsPath(_dump)}", "~"]);
        }
        Assert.That(File.Exists(_dump), _live.Raw);
        _dml = EngineHost.OpenDump(_dump, [Load, "!wcfhang", "~"]);
        TestContext.Progress.WriteLine($"WcfHang client under Wine: pid {_pid}, dump {new FileInfo(_dump).Length / (1 << 20)} MB, extension {extension}");
    }

    [Test]
    public void Live_the_extension_reports_the_self_deadlock()
    {
        EngineHost.Command live = _live["!wcfhang"];
        Assert.That(live.Errors, Is.Empty, _live.Raw);
        string dml = live.Dml;
        Assert.That(dml, Does.StartWith($"process {_pid}: WINDOWS x64 live process, .NET 10."), dml);
        Assert.That(dml, Does.Contain("[wcfhang]").And.Contain("deadlocked on its own channel's receive thread"), dml);
        Assert.That(DmlChecker.Problems(dml), Is.Empty, dml);
    }

    [Test]
    public void On_the_dump_the_report_is_clean_dml_with_thread_and_object_links()
    {
        EngineHost.Command report = _dml["!wcfhang"];
        Assert.That(_dml.Opened, Is.True, _dml.Raw);
        Assert.That(report.Errors, Is.Empty, _dml.Raw);
        string dml = report.Dml;
        Assert.That(dml, Does.Contain("[wcfhang]").And.Contain("deadlocked on its own channel's receive thread"), dml);
        Assert.That(DmlChecker.Problems(dml), Is.Empty, dml);
        Assert.That(DmlChecker.LinkCommands(dml), Has.Some.Matches(@"^~~\[0x[0-9a-f]+\]s").And.Some.Matches(@"^!DumpObj /d 0x[0-9a-f]+$"), dml);
    }

    [Test]
    public void Thread_links_name_threads_the_debugger_knows()
    {
        // diagext's links carry the OS thread id, as "~" lists them.
        IReadOnlySet<string> known = _dml["~"].ListedThreadIds;
        string[] linked = DmlChecker.LinkedThreadIds(_dml["!wcfhang"].Dml).Distinct().ToArray();
        Assert.That(linked, Is.Not.Empty);
        Assert.That(linked, Is.SubsetOf(known), _dml["~"].ToString());
    }

    [Test]
    public void Every_link_of_the_wcfhang_finding_gets_a_real_answer_from_SOS()
    {
        List<string> links = DmlChecker.LinkCommands(_dml["!wcfhang"].Dml).Distinct().ToList();
        Assert.That(links, Is.Not.Empty, _dml["!wcfhang"].Dml);
        // The stuck thread's stack holds the wait DiagExt names; the request object is the pending SyncDuplexRequest.
        SosLinks.AssertAnswered(SosLinks.Run(_dump, links), links,
            (_, stack) => Assert.That(stack, Does.Contain("SyncDuplexRequest.WaitForReply")), (_, _) => { });
    }
}
