using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.WinDbg;

/// <summary>
/// Ctrl+Break during a long !hang on a real .NET dump, in Microsoft's engine under Wine: the engine's interrupt is set
/// from a second thread (as WinDbg's UI thread does), the extension sees it (IDebugControl::GetInterrupt, polled while
/// diagext runs), ends diagext, says "cancelled", and the prompt is back within a second; no diagext is left running.
/// diagext's test hook DIAGEXT_TEST_STALL_DETECTOR holds hang where it starts, standing in for a big dump's analysis.
/// </summary>
[TestFixture]
[Category(TestKind.Windows)]
public class CtrlBreakTests
{
    private static readonly TimeSpan PressAfter = TimeSpan.FromSeconds(8);
    private EngineHost.Session _session = null!;

    [OneTimeSetUp]
    public void PressCtrlBreakDuringHang() =>
        _session = EngineHost.OpenDump(WindowsHangDump.Monitor3.Path,
            [$".load {WinePrefix.WindowsPath(WinDbgPackage.Extension("x64"))}", "!hang"],
            new EngineHost.Options
            {
                InterruptAfter = PressAfter,
                Environment = new Dictionary<string, string> { ["DIAGEXT_TEST_STALL_DETECTOR"] = "hang" },
            });

    [Test]
    public void The_command_says_cancelled_and_returns_within_a_second()
    {
        EngineHost.Command hang = _session["!hang"];
        Assert.That(hang.Errors.LastOrDefault(), Is.EqualTo("DiagExt: cancelled (Ctrl+Break); diagext was ended"), _session.Raw);
        Assert.That(hang.Lines.Select(l => l.Text), Has.None.StartsWith("[hang]"));
        Assert.That(hang.ElapsedMs, Is.InRange((int)PressAfter.TotalMilliseconds, (int)PressAfter.TotalMilliseconds + 1000), _session.Raw);
        TestContext.Progress.WriteLine($"Ctrl+Break at {PressAfter.TotalMilliseconds} ms, prompt back at {hang.ElapsedMs} ms");
    }

    [Test]
    public void No_diagext_is_left_running() =>
        Assert.That(_session.ChildrenLeft, Is.Empty, _session.Raw);
}
