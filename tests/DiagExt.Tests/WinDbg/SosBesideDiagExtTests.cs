using System.Text.Json;
using System.Text.RegularExpressions;
using DiagExt.Cli.Commands;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.WinDbg;

/// <summary>
/// DiagExt as a WinDbg user has it: beside Microsoft's SOS (the win-x64 sos.dll of dotnet-dump 10.0.750501), in
/// Microsoft's engine under Wine, on a full dump of samples/Hangs "monitor3" (win-x64, .NET 10) run under Wine; SOS
/// finds the DAC beside the dump's coreclr.dll, of the runtime the program ran on. One engine session per load order.
/// Every command of DiagExt works in both; each link !hang prints is run as a click runs it (its command text) and SOS
/// answers for the same thread or object; SOS's own answer to the same question (!syncblk's owners) agrees.
/// </summary>
[TestFixture]
[Category(TestKind.Windows)]
public partial class SosBesideDiagExtTests
{
    private string _dump = null!;
    private EngineHost.Session _sosFirst = null!;
    private EngineHost.Session _diagextFirst = null!;
    private IReadOnlyList<string> _links = null!;

    private static string LoadSos => $".load {WinePrefix.WindowsPath(SosPackage.Dll)}";

    private static string LoadDiagExt => $".load {WinePrefix.WindowsPath(WinDbgPackage.Extension("x64"))}";

    private static readonly string[] DiagExtCommands =
        [.. CommandCatalog.All.Where(c => c.OwnExport && c.Name != "help").Select(c => "!" + c.Name), "!diagext"];

    [OneTimeSetUp]
    public void LoadBothInEitherOrder()
    {
        _dump = WindowsHangDump.Monitor3.Path;
        _sosFirst = EngineHost.OpenDump(_dump,
            [LoadSos, LoadDiagExt, ".chain", "!sos.help", "!DiagExt.help", .. DiagExtCommands, "!hang --json", "!syncblk",
             ".unload DiagExt", ".chain", "!threads", "!hang"]);
        _links = DmlChecker.LinkCommands(_sosFirst["!hang"].Dml).Distinct().ToList();
        // The links are run in the other order's session: what a click runs does not depend on which was loaded first.
        _diagextFirst = EngineHost.OpenDump(_dump, [LoadDiagExt, LoadSos, ".chain", "!sos.help", "!DiagExt.help", .. DiagExtCommands, .. _links]);
    }

    private IEnumerable<(string Order, EngineHost.Session Session)> BothOrders => [("SOS first", _sosFirst), ("DiagExt first", _diagextFirst)];

    [GeneratedRegex(@" in \d+\.\d\ds")]
    private static partial Regex Elapsed();

    [Test]
    public void Every_DiagExt_command_works_in_either_order()
    {
        string dumpLine = $"{WinePrefix.WindowsPath(_dump)}: WINDOWS x64 Windows minidump, .NET 10.";
        foreach (string command in DiagExtCommands)
        {
            EngineHost.Command sosFirst = _sosFirst.Commands.First(c => c.Text == command);
            EngineHost.Command diagextFirst = _diagextFirst[command];
            foreach (EngineHost.Command run in new[] { sosFirst, diagextFirst })
            {
                Assert.That(run.Errors, Is.Empty, run.ToString());
                Assert.That(run.NonEmpty.First().Text, Does.StartWith(dumpLine), run.ToString());
            }
            Assert.That(diagextFirst.Lines.Select(l => Elapsed().Replace(l.ToString(), " in N")),
                Is.EqualTo(sosFirst.Lines.Select(l => Elapsed().Replace(l.ToString(), " in N"))), command);
        }
    }

    [Test]
    public void Each_help_is_reachable_by_its_module_and_the_chain_lists_both()
    {
        foreach ((string order, EngineHost.Session session) in BothOrders)
        {
            Assert.That(session["!DiagExt.help"].Lines.Select(l => l.Text), Has.Some.StartsWith("DiagExt: !diagext runs every detector"), order);
            Assert.That(session["!sos.help"].Lines.Select(l => l.Text), Has.Some.Contains("clrstack").IgnoreCase, order);
            Assert.That(session["!sos.help"].Lines.Select(l => l.Text), Has.None.Contains("DiagExt"), order);
            string chain = string.Join('\n', session.Commands.First(c => c.Text == ".chain").Lines.Select(l => l.Text));
            Assert.That(chain, Does.Contain("DiagExt.dll").And.Contain("sos.dll"), order);
        }
    }

    [Test]
    public void Unloading_DiagExt_leaves_SOS_working()
    {
        Assert.That(_sosFirst[".unload DiagExt"].HResult, Is.Zero, _sosFirst[".unload DiagExt"].ToString());
        string chain = string.Join('\n', _sosFirst.Commands.Last(c => c.Text == ".chain").Lines.Select(l => l.Text));
        Assert.That(chain, Does.Contain("sos.dll").And.Not.Contain("DiagExt.dll"));
        EngineHost.Command threads = _sosFirst["!threads"];
        Assert.That(threads.Lines.Select(l => l.Text), Has.Some.StartsWith("ThreadCount:"), threads.ToString());
        // !hang is now no export of any loaded extension.
        Assert.That(_sosFirst.Commands.Last(c => c.Text == "!hang").Lines.Select(l => l.Text), Has.None.StartsWith("[hang]"));
    }

    private JsonElement HangFinding()
    {
        string json = string.Concat(_sosFirst["!hang --json"].Lines.Where(l => l.Kind == 'D').Select(l => l.Text + "\n"))
            .Replace("&lt;", "<").Replace("&gt;", ">").Replace("&quot;", "\"").Replace("&amp;", "&");
        return JsonDocument.Parse(json).RootElement.GetProperty("findings").EnumerateArray().Single(f => f.GetProperty("detector").GetString() == "hang");
    }

    [Test]
    public void Every_link_of_the_hang_finding_gets_a_real_answer_from_SOS()
    {
        JsonElement finding = HangFinding();
        Assert.That(_links, Has.Some.StartsWith("~~[0x").And.Some.StartsWith("!DumpObj /d 0x"), _sosFirst["!hang"].Dml);
        SosLinks.AssertAnswered(_diagextFirst, _links,
            (tid, stack) =>
            {
                // The frame DiagExt names for a thread of the cycle is on the stack SOS shows.
                foreach (JsonElement step in finding.GetProperty("cycle").EnumerateArray().Where(s => s.GetProperty("osThreadId").GetUInt64() == tid))
                    Assert.That(stack, Does.Contain(MethodName(step.GetProperty("callerFrame").GetString()!)));
            },
            (address, obj) =>
            {
                Assert.That(SosLinks.TypeName(obj), Is.Not.Null, obj);
                JsonElement? lockInfo = finding.GetProperty("locks").EnumerateArray()
                    .Cast<JsonElement?>().FirstOrDefault(l => AddressOf(l!.Value) == address);
                if (lockInfo is { } known)
                    Assert.That(SosLinks.TypeName(obj), Is.EqualTo(known.GetProperty("type").GetString()), obj);
            });
    }

    // DiagExt's JSON writes addresses as "0x7ef5bd80a2e8".
    private static ulong AddressOf(JsonElement lockInfo) => Convert.ToUInt64(lockInfo.GetProperty("address").GetString(), 16);

    // "Worker.TakeBoth" from a frame as DiagExt writes it ("Hangs.Worker.TakeBoth(System.Object)" or "Worker.TakeBoth").
    private static string MethodName(string frame)
    {
        string name = frame.Split('(')[0];
        string[] parts = name.Split('.');
        return parts.Length >= 2 ? $"{parts[^2]}.{parts[^1]}" : name;
    }

    [Test]
    public void Syncblk_names_the_owners_DiagExt_names()
    {
        JsonElement finding = HangFinding();
        string syncblk = string.Join('\n', _sosFirst["!syncblk"].Lines.Select(l => l.Text));
        foreach (JsonElement lockInfo in finding.GetProperty("locks").EnumerateArray().Where(l => l.GetProperty("kind").GetString() == "monitor"))
        {
            ulong address = AddressOf(lockInfo);
            // "    3 000000000116D808            5         1 0000000001026960 120   4   00007fe63f40a478 System.Object"
            Match row = Regex.Match(syncblk, $@"(?m)^\s*\d+\s+[0-9a-f]+\s+\d+\s+\d+\s+[0-9a-f]+\s+(?<os>[0-9a-f]+)\s+\d+\s+0*{address:x}\s",
                RegexOptions.IgnoreCase);
            Assert.That(row.Success, Is.True, $"lock 0x{address:x} not in !syncblk:\n{syncblk}");
            ulong[] heldBy = lockInfo.GetProperty("heldBy").EnumerateArray().Select(e => e.GetUInt64()).ToArray();
            Assert.That(heldBy, Is.EqualTo(new[] { Convert.ToUInt64(row.Groups["os"].Value, 16) }), syncblk);
        }
    }
}
