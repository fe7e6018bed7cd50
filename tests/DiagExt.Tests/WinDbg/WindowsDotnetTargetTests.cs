using System.Text.RegularExpressions;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.WinDbg;

/// <summary>
/// The whole path on a real Windows .NET process: samples/HostileNames (win-x64) runs under Wine until its
/// Dictionary keyed by a hostile run-time type is corrupt; Microsoft's engine attaches to it, runs
/// !dictcycle live (diagext --pid N --no-suspend), writes a full dump with .dump /ma, and !dictcycle runs
/// again on that dump, once as WinDbg shows it (DML) and once as cdb does (the engine's text conversion).
/// The type's DML and ".shell" link must come out as text, and the only links are diagext's own; each of those links,
/// run beside Microsoft's SOS as a click runs it, gets SOS's answer for that thread or object.
/// </summary>
[TestFixture]
[Category(TestKind.Windows)]
public class WindowsDotnetTargetTests
{
    private string _dump = null!;
    private int _pid;
    private EngineHost.Session _live = null!;
    private EngineHost.Session _dml = null!;
    private EngineHost.Session _text = null!;
    private EngineHost.Session _failing = null!;

    private static string Load => $".load {WinePrefix.WindowsPath(WinDbgPackage.Extension("x64"))}";

    [OneTimeSetUp]
    public void RunAttachDumpAndReopen()
    {
        _dump = Path.Combine(Repo.WorkDirectory, "dumps", "hostile-names-windows.dmp");
        Directory.CreateDirectory(Path.GetDirectoryName(_dump)!);
        File.Delete(_dump);
        string extension = WinDbgPackage.Extension("x64");
        (SampleProcess sample, _pid) = WindowsSample.Start("HostileNames", TimeSpan.FromMinutes(3));
        using (sample)
        {
            // The dump is written while the engine holds the process stopped in the state !dictcycle just read. A
            // hammer thread is caught inside the corrupt instance most of the time, not always, and the tests below
            // need one: when the live report links no thread, attach again (the sample runs on between attaches).
            for (int attempt = 1; ; attempt++)
            {
                _live = EngineHost.Attach(_pid, [Load, "!dictcycle", $".dump /ma /o {WinePrefix.WindowsPath(_dump)}", "~"]);
                if (DmlChecker.LinkCommands(_live["!dictcycle"].Dml).Any(c => c.StartsWith("~~[0x", StringComparison.Ordinal)) || attempt == 3)
                    break;
                TestContext.Progress.WriteLine($"HostileNames: attach {attempt} caught no thread inside the instance; again");
            }
        }
        Assert.That(File.Exists(_dump), _live.Raw);
        _dml = EngineHost.OpenDump(_dump, [Load, "!dictcycle", "~"]);
        _text = EngineHost.OpenDump(_dump, [Load, "!dictcycle"], new EngineHost.Options { TextOnly = true });
        _failing = EngineHost.OpenDump(_dump, [Load, "!diagext", "!wcfhang"],
            new EngineHost.Options { Environment = new Dictionary<string, string> { [Analysis.DetectorFailureTests.Hook] = "wcfhang" } });
        TestContext.Progress.WriteLine($"HostileNames under Wine: pid {_pid}, dump {new FileInfo(_dump).Length / (1 << 20)} MB, extension {extension}");
    }

    [Test]
    public void Live_the_extension_hands_diagext_the_stopped_process()
    {
        EngineHost.Command live = _live["!dictcycle"];
        Assert.That(live.Errors, Is.Empty, _live.Raw);
        string dml = live.Dml;
        Assert.That(dml, Does.StartWith($"process {_pid}: WINDOWS x64 live process, .NET 10."));
        Assert.That(dml, Does.Contain("<b>[dictcycle] Corrupt Dictionary&lt;Evil&lt;link"));
        Assert.That(DmlChecker.Problems(dml), Is.Empty, dml);
    }

    [Test]
    public void On_the_dump_the_report_is_clean_dml_with_only_numeric_links()
    {
        string dml = _dml["!dictcycle"].Dml;
        Assert.That(_dml["!dictcycle"].Errors, Is.Empty, _dml.Raw);
        Assert.That(DmlChecker.Problems(dml), Is.Empty, dml);
        Assert.That(dml, Does.Contain("held by: static Evil&lt;link cmd=&quot;.shell -ci"));
        Assert.That(dml, Does.Contain("Field&lt;b&gt;&lt;link cmd=&quot;.shell -ci \\&quot;calc\\&quot; cmd /c echo PWNED&quot;&gt;click me&lt;/link&gt;\\u000aF"));
        IReadOnlyList<string> links = DmlChecker.LinkCommands(dml);
        Assert.That(links, Has.Some.StartsWith("!DumpObj /d 0x").And.Some.StartsWith("~~[0x"));
    }

    [Test]
    public void Thread_links_name_threads_the_debugger_knows()
    {
        // diagext's links carry the OS thread id, as "~" lists them.
        IReadOnlySet<string> known = _dml["~"].ListedThreadIds;
        string[] linked = DmlChecker.LinkedThreadIds(_dml["!dictcycle"].Dml).ToArray();
        Assert.That(linked, Is.Not.Empty);
        Assert.That(linked, Is.SubsetOf(known), _dml["~"].ToString());
    }

    [Test]
    public void As_text_the_engine_shows_the_hostile_names_literally_and_whole()
    {
        string[] lines = _text["!dictcycle"].Lines.Select(l => l.Text).ToArray();
        Assert.That(_text["!dictcycle"].Lines.All(l => l.Kind != 'D'), "asked for text only");
        string heldBy = lines.First(l => l.Contains("held by: static Evil"));
        // Entities decoded back to the characters, nothing swallowed up to the end of the line.
        Assert.That(heldBy, Does.StartWith("  held by: static Evil<link cmd=\".shell -ci"));
        Assert.That(heldBy, Does.EndWith("Field<b><link cmd=\".shell -ci \\\"calc\\\" cmd /c echo PWNED\">click me</link>\\u000aF"));
        // The dumped thread is inside Dictionary's code or in the hostile Hammer that calls it (timing: a CI run caught it
        // in Hammer), so the frame is either; the caller after ' <- ' and the CPU time must survive both.
        Assert.That(lines, Has.Some.Matches(@"^\s+at (Dictionary<__Canon, Int32>\.\w+|Evil<link .+\.Hammer<link .+) <- .+; CPU user \d"), "the caller frame after ' <- ' and the CPU time survive");
    }

    [Test]
    public void A_detector_that_fails_leaves_the_rest_of_the_report_in_the_debugger()
    {
        // wcfhang is made to throw (the suite's test hook, passed through the debugger's environment to diagext).
        EngineHost.Command all = _failing["!diagext"];
        Assert.That(all.Errors, Is.Empty, _failing.Raw);
        Assert.That(all.Dml, Does.Contain("wcfhang: failed: InvalidOperationException").And.Contain("analysis incomplete: wcfhang failed"), all.Dml);
        Assert.That(all.Dml, Does.Contain("[dictcycle]"), "dictcycle's finding is still there");
        Assert.That(DmlChecker.Problems(all.Dml), Is.Empty, all.Dml);
        // Alone, the failed detector's report is shown (exit code 3, not an error of the extension's).
        EngineHost.Command alone = _failing["!wcfhang"];
        Assert.That(alone.Errors, Is.Empty, _failing.Raw);
        Assert.That(alone.Dml, Does.Contain("analysis incomplete: wcfhang failed"), alone.Dml);
    }

    [Test]
    public void Every_link_of_the_dictcycle_finding_gets_a_real_answer_from_SOS()
    {
        string dml = _dml["!dictcycle"].Dml;
        List<string> links = DmlChecker.LinkCommands(dml).Distinct().ToList();
        Assert.That(links, Has.Some.StartsWith("~~[0x").And.Some.StartsWith("!DumpObj /d 0x"), dml);
        string text = System.Net.WebUtility.HtmlDecode(Regex.Replace(dml, "<[^>]*>", ""));
        ulong instance = Convert.ToUInt64(Regex.Match(text, @"instance: 0x(?<a>[0-9a-f]+) ").Groups["a"].Value, 16);
        // A thread DiagExt ties to the table runs in, throws from or holds it: its stack as SOS shows it names the
        // frame DiagExt gives after "at" (the collection method, or the user's frame the JIT inlined it into).
        var frames = Regex.Matches(text, @"(?m)^\s+0x(?<t>[0-9a-f]+) \(managed \d+\)[^\n]*\n\s+at (?<f>[^ <;]+)")
            .GroupBy(m => Convert.ToUInt64(m.Groups["t"].Value, 16))
            .ToDictionary(g => g.Key, g => g.First().Groups["f"].Value.Split('<')[0].Split('.')[^1]);
        SosLinks.AssertAnswered(SosLinks.Run(_dump, links), links,
            (tid, stack) =>
            {
                if (frames.GetValueOrDefault(tid) is { } frame)
                    Assert.That(stack, Does.Contain(frame));
            },
            (address, obj) =>
            {
                // SOS writes generic types its own way (Dictionary`2[[...]]): compared as a prefix.
                if (address == instance && SosLinks.TypeName(obj) is { } type)
                    Assert.That(type, Does.StartWith("System.Collections.Generic.Dictionary"), obj);
            });
    }

    [Test]
    public void Sos_finds_the_entries_array_DiagExt_names_in_the_instance()
    {
        // Microsoft's SOS on the same dump: !DumpObj of the instance DiagExt reports has its _entries field pointing at
        // the array DiagExt names, and !DumpObj of that array counts the elements DiagExt counts.
        string text = Regex.Replace(_dml["!dictcycle"].Dml, "<[^>]*>", "");
        Match instance = Regex.Match(text, @"instance: 0x(?<a>[0-9a-f]+) ");
        Match entries = Regex.Match(text, @"entries 0x(?<a>[0-9a-f]+) \[(?<n>\d+)\]");
        Assert.That(instance.Success && entries.Success, Is.True, text);
        string dumpInstance = $"!DumpObj /d 0x{instance.Groups["a"].Value}", dumpEntries = $"!DumpObj /d 0x{entries.Groups["a"].Value}";
        EngineHost.Session sos = EngineHost.OpenDump(_dump, [$".load {WinePrefix.WindowsPath(SosPackage.Dll)}", dumpInstance, dumpEntries]);
        string fields = SosLinks.Text(sos[dumpInstance]);
        Assert.That(fields, Does.Match($@"(?mi)\s0*{entries.Groups["a"].Value}\s+_entries\s*$"), sos.Raw);
        string array = SosLinks.Text(sos[dumpEntries]);
        Assert.That(array, Does.Contain($"Number of elements {entries.Groups["n"].Value}"), sos.Raw);
    }
}
