using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.WinDbg;

/// <summary>
/// A name DiagExt.dll exports that another extension every .NET debugging session has also exports is a command the
/// user gets from whichever was loaded last (see <see cref="SearchOrderTests"/>): "!analyze -v" must stay ext.dll's.
/// DiagExt's exports share no name with ext.dll/exts.dll, SOS, SOSEX or NetExt beyond help, which every extension
/// has and which the user reaches as !DiagExt.help. SOS's names are read from the real sos.dll; the others, which are
/// not served here, are written down from where each is documented.
/// </summary>
[TestFixture]
[Category(TestKind.Windows)]
public class ExportNameClashTests
{
    // Microsoft's "General Extension Commands" reference (learn.microsoft.com/windows-hardware/drivers/debuggercmds/
    // general-extensions): the commands of winext\ext.dll and winxp\exts.dll, which head WinDbg's default search chain.
    private static readonly string[] WindowsGeneralExtensions =
    [
        "acl", "address", "analyze", "asd", "atom", "bitcount", "chksym", "chkimg", "cppexr", "cpuid", "cursym", "dh", "dlls",
        "dml_proc", "dumpfa", "elog_str", "envvar", "error", "exchain", "exr", "findxmldata", "for_each_frame", "for_each_function",
        "for_each_local", "for_each_module", "for_each_register", "gflag", "gle", "gs", "handle", "heap", "help", "homedir",
        "hstring", "hstring2", "htrace", "imggp", "imgreloc", "kuser", "list", "lmi", "mui", "net_send", "obja", "owner", "peb",
        "rebase", "rtlavl", "sd", "sid", "slist", "std_map", "stl", "str", "sysinfo", "teb", "tls", "token", "triage", "ustr",
        "version", "winrterr",
    ];

    // SOSEX 4.6 (Steve Johnson; closed source), the "Quick Ref" of its readme and !sosex.help.
    private static readonly string[] Sosex =
    [
        "bhi", "bpsc", "chi", "dlk", "dumpfd", "dumpgen", "finq", "frq", "gcgen", "gch", "help", "lhi", "mbc", "mbd", "mbe", "mbl",
        "mbm", "mbp", "mdso", "mdt", "mdv", "mfrag", "mframe", "mgu", "mk", "mln", "mlocks", "mroot", "mu", "muf", "mwaits", "mx",
        "refs", "rcw", "rwlock", "sosexhelp", "strings", "vars",
    ];

    // NetExt (github.com/rodneyviana/netext), the EXPORTS of NetExt/NetExt.def.
    private static readonly string[] NetExt =
    [
        "help", "wver", "wstack", "wclrstack", "wdo", "wselect", "wheap", "windex", "wfrom", "weval", "regmatch", "regsearch",
        "wdict", "whash", "whttp", "wcookie", "wconfig", "wkeyvalue", "wclass", "wservice", "whelp", "wtoken", "wruntime",
        "wopendownloadpage", "wupdate", "wgchandle", "wthreads", "wpe", "wdae", "wdomain", "wsocket", "wxml", "wtime", "wmodule",
        "wmakesource", "wapppool", "wsql", "wvar", "wconcurrentdict",
    ];

    private static IEnumerable<string> Commands(string dll) =>
        new PeImage(dll).ExportNames().Where(n => !n.StartsWith("DebugExtension", StringComparison.Ordinal));

    private static IEnumerable<TestCaseData> Others()
    {
        yield return new TestCaseData("ext.dll/exts.dll", (Func<IEnumerable<string>>)(() => WindowsGeneralExtensions)).SetArgDisplayNames("ext");
        yield return new TestCaseData("SOS", (Func<IEnumerable<string>>)(() => Commands(SosPackage.Dll))).SetArgDisplayNames("sos");
        yield return new TestCaseData("SOSEX", (Func<IEnumerable<string>>)(() => Sosex)).SetArgDisplayNames("sosex");
        yield return new TestCaseData("NetExt", (Func<IEnumerable<string>>)(() => NetExt)).SetArgDisplayNames("netext");
    }

    [TestCaseSource(nameof(Others))]
    public void DiagExt_exports_no_name_of_another_extension_but_help(string extension, Func<IEnumerable<string>> names)
    {
        // Names are case-sensitive in the engine's lookup, but a user types SOS's !DumpObj as !dumpobj: compare without case.
        var theirs = names().ToHashSet(StringComparer.OrdinalIgnoreCase);
        Assert.That(theirs, Has.Count.GreaterThan(10), extension);
        string[] shared = Commands(WinDbgPackage.Extension("x64")).Where(theirs.Contains).ToArray();
        Assert.That(shared, Is.EqualTo(new[] { "help" }), $"DiagExt.dll exports names {extension} has");
    }

    [Test]
    public void Sos_exports_the_commands_DiagExts_links_run() =>
        // The list above is read from the real sos.dll; the links' commands must be among its exports.
        Assert.That(Commands(SosPackage.Dll), Is.SupersetOf(new[] { "clrstack", "DumpObj", "syncblk", "threads", "help" }));
}
