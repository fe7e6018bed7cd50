using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.WinDbg;

/// <summary>
/// A diagext that is missing, crashes, hangs, is killed or writes garbage must never hang or crash the
/// debugger: each case is one clear line. tests/native/fake-helper.cpp stands in for diagext.exe and
/// misbehaves as told by a "--fake=MODE" argument; the engine is Microsoft's, under Wine.
/// </summary>
[TestFixture]
[Category(TestKind.Windows)]
public class HelperFailureTests
{
    private static readonly string Dump = Path.Combine(Repo.SharedWindowsDumps, "win11-x64-crashpad-tiny-exe.dmp");
    private EngineHost.Session _session = null!;
    private string _spacedDump = null!;
    private string _load = null!;
    private string _fakeExe = null!;

    [OneTimeSetUp]
    public void RunEveryMisbehaviourInOneSession()
    {
        Repo.RequireSharedDumps();
        string root = WinDbgPackage.FreshLayout("fake-helper");
        Directory.CreateDirectory(Path.Combine(root, "x64", "diagext"));
        File.Copy(WinDbgPackage.Extension("x64"), Path.Combine(root, "x64", "DiagExt.dll"));
        _fakeExe = Path.Combine(root, "x64", "diagext", "diagext.exe");
        File.Copy(MingwBuild.Program("fake-helper.cpp"), _fakeExe);
        // A dump path with spaces, to check the quoting of the command line.
        string spaced = Path.Combine(Path.GetDirectoryName(root)!, "dumps with spaces");
        Directory.CreateDirectory(spaced);
        _spacedDump = Path.Combine(spaced, "tiny dump.dmp");
        File.Copy(Dump, _spacedDump, overwrite: true);
        _load = $".load {WinePrefix.WindowsPath(Path.Combine(root, "x64", "DiagExt.dll"))}";

        // Ctrl+Break is pressed 3 s into the last command, the one that would otherwise wait ten minutes.
        _session = EngineHost.OpenDump(_spacedDump,
            [_load, "!dictcycle --fake=echo \"two words\" x", SymbolPath, "!dictcycle --fake=env", "!diagext --fake=garbage", "!diagext --fake=crash",
             "!diagext --fake=silent", "!diagext --fake=exit7", "!diagext --fake=sleep"],
            new EngineHost.Options { InterruptAfter = TimeSpan.FromSeconds(3) });
    }

    [Test]
    public void The_helper_gets_the_command_the_dml_console_the_dump_and_the_users_arguments()
    {
        Assert.That(_session["!dictcycle --fake=echo \"two words\" x"].Lines.Select(l => l.ToString()), Is.EqualTo(new[]
        {
            $"D|arg|{WinePrefix.WindowsPath(_fakeExe)}",
            "D|arg|dictcycle",
            "D|arg|--dml-console",
            $"D|arg|{WinePrefix.WindowsPath(_spacedDump)}",
            "D|arg|--fake=echo",
            "D|arg|two words",
            "D|arg|x",
        }), _session.Raw);
    }

    private const string SymbolPath = @".sympath srv*C:\symbols*http://127.0.0.1:9/store/";

    [Test]
    public void The_helper_gets_the_debuggers_symbol_path_to_find_a_DAC_with()
    {
        Assert.That(_session["!dictcycle --fake=env"].NonEmpty.Select(l => l.ToString()), Is.EqualTo(new[]
        {
            @"D|env|_NT_SYMBOL_PATH=srv*C:\symbols*http://127.0.0.1:9/store/",
        }), _session.Raw);
    }

    [Test]
    public void Garbage_output_stops_the_helper_with_one_line()
    {
        EngineHost.Command garbage = _session["!diagext --fake=garbage"];
        Assert.That(garbage.NonEmpty.Select(l => l.ToString()), Is.EqualTo(new[]
        {
            $"E|DiagExt: {WinePrefix.WindowsPath(_fakeExe)} wrote output that is not diagext's text, so it was stopped; is it the diagext that came with this DiagExt.dll?",
        }));
        Assert.That(garbage.ElapsedMs, Is.LessThan(30_000), "the helper sleeps ten minutes after its garbage");
    }

    [Test]
    public void A_crash_is_one_line_with_the_exit_code()
    {
        Assert.That(_session["!diagext --fake=crash"].NonEmpty.Select(l => l.ToString()), Is.EqualTo(new[]
        {
            "D|fake-helper: about to crash",
            "E|DiagExt: diagext ended unexpectedly with exit code 0xC0000005 (access violation); the debugging session is not affected",
        }));
    }

    [Test]
    public void A_helper_that_ends_without_a_word_is_reported()
    {
        Assert.That(_session["!diagext --fake=silent"].NonEmpty.Select(l => l.ToString()), Is.EqualTo(new[]
        {
            "E|DiagExt: diagext ended with exit code 1 without printing anything; was it stopped from outside?",
        }));
    }

    [Test]
    public void An_unexpected_exit_code_follows_the_helpers_own_error()
    {
        Assert.That(_session["!diagext --fake=exit7"].NonEmpty.Select(l => l.ToString()), Is.EqualTo(new[]
        {
            "E|fake-helper: failing",
            "E|DiagExt: diagext ended unexpectedly with exit code 0x00000007; the debugging session is not affected",
        }));
    }

    [Test]
    public void Ctrl_Break_stops_a_helper_that_would_run_for_ten_minutes()
    {
        EngineHost.Command sleep = _session["!diagext --fake=sleep"];
        Assert.That(sleep.NonEmpty.Select(l => l.ToString()), Is.EqualTo(new[]
        {
            "D|fake-helper: working",
            "E|DiagExt: cancelled (Ctrl+Break); diagext was ended",
        }), _session.Raw);
        Assert.That(sleep.ElapsedMs, Is.InRange(2_500, 30_000));
    }

    [Test]
    public void The_session_goes_on_after_every_failure() =>
        Assert.That(_session.Commands, Has.Count.EqualTo(9), _session.Raw);

    [Test]
    public void A_missing_helper_is_one_line_naming_where_it_was_looked_for()
    {
        string root = WinDbgPackage.FreshLayout("no-helper");
        Directory.CreateDirectory(Path.Combine(root, "x64"));
        string dll = Path.Combine(root, "x64", "DiagExt.dll");
        File.Copy(WinDbgPackage.Extension("x64"), dll);
        string load = $".load {WinePrefix.WindowsPath(dll)}";

        EngineHost.Session session = EngineHost.OpenDump(Dump, [load, "!dictcycle", "!help"]);

        string expected = $"E|DiagExt: diagext.exe not found at {WinePrefix.WindowsPath(Path.Combine(root, "x64", "diagext", "diagext.exe"))}: copy the whole DiagExt folder (x64 and x86) from the release zip";
        Assert.That(session["!dictcycle"].NonEmpty.Select(l => l.ToString()), Is.EqualTo(new[] { expected }), session.Raw);
        Assert.That(session["!help"].NonEmpty.Last().ToString(), Is.EqualTo(expected));
    }

    [Test]
    public void A_32_bit_target_runs_the_framework_dependent_diagext_with_the_32_bit_dotnet_host()
    {
        // The fake stands in for dotnet.exe (x86), found where the .NET installer records the 32-bit
        // install: HKLM\SOFTWARE\dotnet\Setup\InstalledVersions\x86 in the 32-bit registry view.
        // (Wine does not import DOTNET_ROOT(x86) from the Linux environment: a name with parentheses.)
        string root = WinDbgPackage.FreshLayout("x86-dotnet-host");
        Directory.CreateDirectory(Path.Combine(root, "x64"));
        File.Copy(WinDbgPackage.Extension("x64"), Path.Combine(root, "x64", "DiagExt.dll"));
        WinDbgPackage.CopyDirectory(Path.Combine(WinDbgPackage.Folder, "x86", "diagext"), Path.Combine(root, "x86", "diagext"));
        string dotnetRoot = Path.Combine(Path.GetDirectoryName(root)!, "dotnet-x86");
        Directory.CreateDirectory(dotnetRoot);
        // A 64-bit stand-in: only the extension's lookup and command line are under test here.
        File.Copy(MingwBuild.Program("fake-helper.cpp"), Path.Combine(dotnetRoot, "dotnet.exe"), overwrite: true);
        string dump = Repo.SharedDump("win-x86-crashpad-tiny-exe.dmp");
        string load = $".load {WinePrefix.WindowsPath(Path.Combine(root, "x64", "DiagExt.dll"))}";
        const string key = @"HKLM\SOFTWARE\dotnet\Setup\InstalledVersions\x86";

        EngineHost.Session session;
        WinePrefix.Registry(["add", key, "/v", "InstallLocation", "/d", WinePrefix.WindowsPath(dotnetRoot), "/reg:32", "/f"]);
        try
        {
            session = EngineHost.OpenDump(dump, [load, "!diagext --fake=echo"]);
        }
        finally
        {
            WinePrefix.Registry(["delete", key, "/reg:32", "/f"]);
        }

        Assert.That(session["!diagext --fake=echo"].NonEmpty.Select(l => l.ToString()), Is.EqualTo(new[]
        {
            $"D|arg|{WinePrefix.WindowsPath(Path.Combine(dotnetRoot, "dotnet.exe"))}",
            $"D|arg|{WinePrefix.WindowsPath(Path.Combine(root, "x86", "diagext", "diagext.dll"))}",
            "D|arg|analyze",
            "D|arg|--dml-console",
            $"D|arg|{WinePrefix.WindowsPath(dump)}",
            "D|arg|--fake=echo",
        }), session.Raw);
    }
}
