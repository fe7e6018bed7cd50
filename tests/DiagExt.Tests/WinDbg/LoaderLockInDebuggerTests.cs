using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.WinDbg;

/// <summary>
/// !loaderlock in the debugger on a real Windows loader-lock deadlock: the loaderlock work's fixture
/// (samples/LoaderLock "spin", the seed's hang: a thread exiting under the loader lock spins in
/// SwitchToThread while the main thread waits in LoadLibrary) run under Wine and dumped, then opened
/// in Microsoft's engine, where the extension runs the win-x64 diagext on it.
/// </summary>
[TestFixture]
[Category(TestKind.Windows)]
public class LoaderLockInDebuggerTests
{
    private WineDump _dump = null!;
    private EngineHost.Session _dml = null!;
    private EngineHost.Session _text = null!;

    private static string Load => $".load {WinePrefix.WindowsPath(WinDbgPackage.Extension("x64"))}";

    [OneTimeSetUp]
    public void DumpTheDeadlockAndOpenIt()
    {
        _dump = WineDumpMaker.Dump("x86_64", "spin");
        _dml = EngineHost.OpenDump(_dump.Path, [Load, "!loaderlock", "!diagext", "~"]);
        _text = EngineHost.OpenDump(_dump.Path, [Load, "!loaderlock"], new EngineHost.Options { TextOnly = true });
    }

    [Test]
    public void Loaderlock_prints_the_verdict_in_the_command_window()
    {
        EngineHost.Command command = _dml["!loaderlock"];
        Assert.That(command.Errors, Is.Empty, _dml.Raw);
        Assert.That(command.Dml, Does.Contain(
            $"<b>[loaderlock] Loader lock held: thread 0x{_dump.OtherThread:x} (exiting, spinning in SwitchToThread); 1 thread waits for it</b>"), _dml.Raw);
        Assert.That(DmlChecker.Problems(command.Dml), Is.Empty, command.Dml);
    }

    [Test]
    public void The_owner_and_the_waiter_are_links_to_threads_the_debugger_knows()
    {
        // No .NET in this process: the links show the native stack (k), not SOS's !clrstack.
        Assert.That(DmlChecker.LinkCommands(_dml["!loaderlock"].Dml), Has.Member($"~~[0x{_dump.OtherThread:x}]s; k").And.No.Contains("!clrstack"));
        string[] linked = DmlChecker.LinkedThreadIds(_dml["!loaderlock"].Dml).Distinct().ToArray();
        Assert.That(linked, Is.EquivalentTo(new[] { _dump.OtherThread.ToString("x"), _dump.MainThread.ToString("x") }), _dml.Raw);
        IReadOnlySet<string> known = _dml["~"].ListedThreadIds;
        Assert.That(linked, Is.SubsetOf(known), _dml["~"].ToString());
    }

    [Test]
    public void As_text_the_owner_and_waiter_stacks_read_as_diagext_prints_them()
    {
        string[] lines = _text["!loaderlock"].Lines.Select(l => l.Text).ToArray();
        Assert.That(lines, Has.Some.StartsWith($"[loaderlock] Loader lock held: thread 0x{_dump.OtherThread:x} (exiting, spinning in SwitchToThread)"), _text.Raw);
        Assert.That(lines, Has.Some.Contains("ntdll!NtYieldExecution").And.Some.Contains("ntdll!LdrShutdownThread"));
        Assert.That(lines, Has.Some.Contains($"waiter: thread 0 (0x{_dump.MainThread:x}) in LoadLibraryW"));
    }

    [Test]
    public void Analyze_runs_loaderlock_and_says_why_the_managed_detectors_did_not()
    {
        string dml = _dml["!diagext"].Dml;
        Assert.That(dml, Does.Contain("dictcycle: skipped: no .NET runtime found in the target"));
        Assert.That(dml, Does.Contain("<b>[loaderlock] Loader lock held:"));
        Assert.That(DmlChecker.Problems(dml), Is.Empty, dml);
    }

    [Test]
    public void Each_thread_link_run_as_a_click_shows_that_threads_native_stack()
    {
        // What a click runs is the link's command text; the engine (no SOS: no .NET here) answers a thread link with
        // the thread's native stack, the owner's spin (SwitchToThread) on it as diagext named it, and the loader lock's and
        // the PEB's address with their memory (the loader lock's OwningThread is the owner).
        List<string> links = DmlChecker.LinkCommands(_dml["!loaderlock"].Dml).Distinct().ToList();
        Assert.That(links, Is.Not.Empty, _dml.Raw);
        EngineHost.Session clicked = EngineHost.OpenDump(_dump.Path, links);
        foreach (string link in links)
        {
            EngineHost.Command answer = clicked[link];
            string text = string.Join('\n', answer.Lines.Select(l => l.Text));
            Assert.That(answer.Errors, Is.Empty, clicked.Raw);
            if (link.StartsWith("~~[", StringComparison.Ordinal))
                Assert.That(text, Does.Contain("Call Site"), answer.ToString());
            else
                Assert.That(text, Does.Match(@"(?m)^[0-9a-f]{8}`[0-9a-f]{8}\s+[0-9a-f]{8}`[0-9a-f]{8}"), answer.ToString()); // dq: address, then words
            if (link == $"~~[0x{_dump.OtherThread:x}]s; k")
                Assert.That(text, Does.Contain("SwitchToThread").IgnoreCase, answer.ToString());
        }
    }
}
