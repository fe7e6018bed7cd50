using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.WinDbg;

/// <summary>
/// Which of two loaded extensions Microsoft's engine runs for a name both export. Microsoft's documentation ("Using
/// Debugger Extension Commands", Search Order) says a module loaded with .load goes to the front of the search chain:
/// a DiagExt loaded after ext.dll would answer "!analyze -v" had it exported analyze. tests/native/clashext.cpp stands
/// in for ext.dll (the engine package has no ext.dll): it exports analyze and help and says it ran.
/// </summary>
[TestFixture]
[Category(TestKind.Windows)]
public class SearchOrderTests
{
    private static readonly string[] Commands = ["!help", "!analyze -v", "!DiagExt.help", "!clashext.help", ".chain"];
    private EngineHost.Session _clashFirst = null!;
    private EngineHost.Session _diagextFirst = null!;

    private static string LoadDiagExt => $".load {WinePrefix.WindowsPath(WinDbgPackage.Extension("x64"))}";

    private static string LoadClash => $".load {WinePrefix.WindowsPath(MingwBuild.Library("clashext.cpp"))}";

    [OneTimeSetUp]
    public void LoadBothInEitherOrder()
    {
        string dump = Repo.SharedDump("win11-x64-crashpad-tiny-exe.dmp");
        _clashFirst = EngineHost.OpenDump(dump, [LoadClash, LoadDiagExt, .. Commands]);
        _diagextFirst = EngineHost.OpenDump(dump, [LoadDiagExt, LoadClash, .. Commands]);
    }

    private static bool RanDiagExt(EngineHost.Command help) => help.Lines.Any(l => l.Text.StartsWith("DiagExt: !diagext runs every detector", StringComparison.Ordinal));

    private static bool RanClash(EngineHost.Command command, string name) => command.Lines.Any(l => l.Text.StartsWith($"clash-extension: {name}", StringComparison.Ordinal));

    [Test]
    public void The_extension_loaded_last_answers_a_name_both_export()
    {
        Assert.That(RanDiagExt(_clashFirst["!help"]), Is.True, _clashFirst.Raw);
        Assert.That(RanClash(_clashFirst["!help"], "help"), Is.False, _clashFirst.Raw);
        Assert.That(RanClash(_diagextFirst["!help"], "help"), Is.True, _diagextFirst.Raw);
        Assert.That(RanDiagExt(_diagextFirst["!help"]), Is.False, _diagextFirst.Raw);
    }

    [Test]
    public void Analyze_reaches_the_other_extension_in_either_order()
    {
        Assert.That(_clashFirst["!analyze -v"].Lines.Select(l => l.Text), Is.EqualTo(new[] { "clash-extension: analyze -v" }), _clashFirst.Raw);
        Assert.That(_diagextFirst["!analyze -v"].Lines.Select(l => l.Text), Is.EqualTo(new[] { "clash-extension: analyze -v" }), _diagextFirst.Raw);
    }

    [Test]
    public void The_module_prefix_picks_the_extension_whatever_the_order()
    {
        foreach (EngineHost.Session session in new[] { _clashFirst, _diagextFirst })
        {
            Assert.That(RanDiagExt(session["!DiagExt.help"]), Is.True, session.Raw);
            Assert.That(RanClash(session["!clashext.help"], "help"), Is.True, session.Raw);
        }
    }

    [Test]
    public void The_chain_lists_the_last_loaded_first()
    {
        foreach ((EngineHost.Session session, string first) in new[] { (_clashFirst, "DiagExt.dll"), (_diagextFirst, "clashext.dll") })
        {
            string[] chain = session[".chain"].Lines.Select(l => l.Text).Where(t => t.Contains("DiagExt.dll") || t.Contains("clashext.dll")).ToArray();
            Assert.That(chain, Has.Length.GreaterThanOrEqualTo(2), session[".chain"].ToString());
            Assert.That(chain[0], Does.Contain(first), session[".chain"].ToString());
        }
    }
}
