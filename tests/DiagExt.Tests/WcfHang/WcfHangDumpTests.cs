using System.Text.Json;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.WcfHang;

/// <summary>
/// wcfhang on dumps of a real dotnet/wcf 10.1.0 client (samples/WcfHang) talking net.tcp to its server on 127.0.0.1.
/// The hung clients (a sync Commit made in an APM callback, or after awaiting FromAsync) must give exactly one
/// self-deadlock naming the thread the client says called Commit and the MessageId the server says it received;
/// the seed's await form (fixed in 10.1.0) and the fixed client must give none.
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class WcfHangDumpTests
{
    [TestCase("apm", "<CommitInApmCallback>")]
    [TestCase("fromasync", "<CommitAfterFromAsync>")]
    public void A_hung_client_gives_one_self_deadlock_with_the_stuck_thread_the_operation_and_the_pump_proof(string mode, string caller)
    {
        WcfHangSample.ClientDump dump = WcfHangSample.Dump(mode);
        Diagext.Result result = Diagext.Run("wcfhang", dump.Path, "--json");
        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stderr);

        JsonElement finding = result.Findings.Single();
        Assert.That(finding.GetProperty("detector").GetString(), Is.EqualTo("wcfhang"));
        Assert.That(finding.GetProperty("kind").GetString(), Is.EqualTo("self-deadlock"));
        Assert.That(finding.GetProperty("severity").GetString(), Is.EqualTo("hazard"));
        Assert.That(finding.GetProperty("operation").GetString(), Is.EqualTo("Commit"));
        Assert.That(finding.GetProperty("action").GetString(), Is.EqualTo("urn:diagext:wcfhang/ILedger/Commit"));
        Assert.That(dump.CommitMessageId, Does.StartWith("urn:uuid:"), dump.ServerOutput);
        Assert.That(finding.GetProperty("messageId").GetString(), Is.EqualTo(dump.CommitMessageId), "the MessageId decoded from UniqueId's two halves is the one the server received");
        Assert.That(finding.GetProperty("remoteAddress").GetString(), Does.Match(@"^net\.tcp://127\.0\.0\.1:\d+/ledger$"));
        Assert.That(finding.GetProperty("callerFrame").GetString(), Does.Contain(caller));
        Assert.That(finding.GetProperty("pumpAcquired").GetInt32(), Is.EqualTo(1));
        Assert.That(finding.GetProperty("timeoutSeconds").GetDouble(), Is.EqualTo(1800), "the client set a 30 min OperationTimeout");
        foreach (string field in new[] { "requestAddress", "binderAddress", "channelHandlerAddress" })
            Assert.That(finding.GetProperty(field).GetString(), Does.Match("^0x[0-9a-f]+$"), field);

        JsonElement thread = finding.GetProperty("threads").EnumerateArray().Single();
        Assert.That(thread.GetProperty("osThreadId").ValueKind, Is.EqualTo(JsonValueKind.Number));
        Assert.That(dump.CommitThread, Is.Not.Null, dump.ClientOutput);
        Assert.That(thread.GetProperty("managedThreadId").GetInt32(), Is.EqualTo(dump.CommitThread), "the thread the client says called Commit");
        string[] stack = thread.GetProperty("stack").EnumerateArray().Select(f => f.GetString()!).ToArray();
        Assert.That(stack, Has.Some.StartsWith("generatedProxy_").And.Some.StartsWith("System.ServiceModel.Dispatcher.ChannelHandler.AsyncMessagePump"), "the whole stack, the proxy call to the pump");

        string[] proof = finding.GetProperty("proof").EnumerateArray().Select(p => p.GetString()!).ToArray();
        Assert.That(proof, Has.Some.Contains("SyncDuplexRequest.WaitForReply").And.Some.Contains("ChannelHandler.AsyncMessagePump"));
        Assert.That(proof, Has.Some.Match(@"^its stack holds AsyncDuplexRequest 0x[0-9a-f]+ of the same binder \(_gotReply true\)$"));
        Assert.That(proof, Has.Some.EqualTo("no other thread's stack runs this channel's pump"));
    }

    [TestCase("seed")]
    [TestCase("fixed")]
    public void A_client_whose_calls_completed_gives_nothing(string mode)
    {
        WcfHangSample.ClientDump dump = WcfHangSample.Dump(mode);
        Assert.That(dump.ClientOutput, Does.Contain("completed: Prepare=True, Commit done"), "on 10.1.0 these forms complete");
        Diagext.Result result = Diagext.Run("wcfhang", dump.Path, "--json");
        Assert.That(result.ExitCode, Is.Zero, result.Stdout + result.Stderr);
        Assert.That(result.Findings, Is.Empty);
        // Not silence: the requests were seen, and none is waited on.
        JsonElement outcome = result.Json.GetProperty("detectors").EnumerateArray().Single();
        Assert.That(outcome.GetProperty("reason").GetString(), Does.Match(@"System\.ServiceModel\.Primitives: \d+ sync \(0 pending\) and \d+ async duplex requests on the heap; no thread waits for a reply"));
    }

    [Test]
    public void A_process_without_wcf_skips_wcfhang_says_why_and_starts_no_heap_pass()
    {
        string dump = DumpMaker.DumpOfSample("DictCycle", "dictcycle-dictionary.core");
        Diagext.Result result = Diagext.Run("wcfhang", dump, "--json");
        Assert.That(result.ExitCode, Is.Zero, "does not apply is an answer, not an input error: " + result.Stderr);
        Assert.That(result.Findings, Is.Empty);
        JsonElement outcome = result.Json.GetProperty("detectors").EnumerateArray().Single();
        Assert.That(outcome.GetProperty("status").GetString(), Is.EqualTo("skipped"));
        Assert.That(outcome.GetProperty("reason").GetString(), Is.EqualTo("no WCF client: neither System.ServiceModel nor System.ServiceModel.Primitives is loaded"));
        Assert.That(result.Json.TryGetProperty("heapPass", out JsonElement pass) && pass.ValueKind != JsonValueKind.Null, Is.False, "no heap walk for wcfhang alone");

        Diagext.Result text = Diagext.Run("analyze", dump);
        Assert.That(text.Stdout, Does.Contain("wcfhang: skipped: no WCF client").And.Not.Contain("wcfhang: note"));
    }

    [Test]
    public void Text_names_the_verdict_the_operation_and_the_fix()
    {
        Diagext.Result result = Diagext.Run("wcfhang", WcfHangSample.Dump("apm").Path);
        Assert.That(result.ExitCode, Is.EqualTo(1));
        Assert.That(result.Stdout, Does.Match(@"\[wcfhang\] WCF call Commit deadlocked on its own channel's receive thread 0x[0-9a-f]+"));
        Assert.That(result.Stdout, Does.Contain("pump: further out on the same stack:").And.Contain("ChannelHandler.AsyncMessagePump"));
        Assert.That(result.Stdout, Does.Contain("fix: Make the contract all-async"));
        Assert.That(result.Stdout, Does.Contain("1 finding (wcfhang: 1)"));
    }

    [Test]
    public void Dml_links_the_stuck_thread_and_the_request()
    {
        WcfHangSample.ClientDump dump = WcfHangSample.Dump("fromasync");
        JsonElement finding = Diagext.Run("wcfhang", dump.Path, "--json").Findings.Single();
        Diagext.Result dml = Diagext.Run("wcfhang", dump.Path, "--format", "dml");
        Assert.That(DmlChecker.Problems(dml.Stdout), Is.Empty, dml.Stdout);
        IReadOnlyList<string> links = DmlChecker.LinkCommands(dml.Stdout);
        uint tid = finding.GetProperty("threads")[0].GetProperty("osThreadId").GetUInt32();
        Assert.That(links, Has.Some.StartsWith($"~~[0x{tid:x}]s"));
        Assert.That(links, Has.Some.EqualTo($"!DumpObj /d {finding.GetProperty("requestAddress").GetString()}"));
    }

    [Test]
    public void Analyze_runs_wcfhang_beside_the_other_detectors()
    {
        Diagext.Result result = Diagext.Run("analyze", WcfHangSample.Dump("apm").Path, "--json");
        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stderr);
        Assert.That(result.Findings.Select(f => f.GetProperty("kind").GetString()), Is.EqualTo(new[] { "self-deadlock" }));
        Assert.That(result.Json.GetProperty("detectors").EnumerateArray().Select(d => d.GetProperty("name").GetString()), Has.Member("wcfhang"));
    }

    [Test]
    public void A_batch_has_a_wcfhang_column_and_counts_the_hung_client()
    {
        string folder = Path.Combine(Repo.WorkDirectory, "wcfhang-batch");
        if (Directory.Exists(folder))
            Directory.Delete(folder, recursive: true);
        Directory.CreateDirectory(folder);
        foreach (string mode in new[] { "apm", "seed" })
            DumpLink.Place(WcfHangSample.Dump(mode).Path, Path.Combine(folder, $"{mode}.core"));
        string markdown = Path.Combine(folder, "report.md");

        Diagext.Result result = Diagext.Run("analyze", folder, "--markdown", markdown);

        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stdout + result.Stderr);
        string[] lines = File.ReadAllLines(markdown);
        string header = lines.First(l => l.StartsWith("| dump |", StringComparison.Ordinal));
        int column = header.Split('|').Select(c => c.Trim()).ToList().IndexOf("wcfhang");
        Assert.That(column, Is.GreaterThan(0), header);
        string Cell(string dump) => lines.First(l => l.Contains($"{dump}.core", StringComparison.Ordinal) && l.StartsWith('|')).Split('|')[column].Trim();
        Assert.That(Cell("apm"), Is.EqualTo("1"));
        Assert.That(Cell("seed"), Is.EqualTo("0"));
        Assert.That(File.ReadAllText(markdown), Does.Contain("WCF call Commit deadlocked on its own channel").And.Contain("Stack of thread 0x"));
    }

    /// <summary>
    /// .NET Framework's names (reply, parent, channelHandler, isPumpAcquired, name, action: referencesource) on a real
    /// process: samples/WcfFrameworkNames builds the same hang on a stand-in assembly named System.ServiceModel, since no
    /// .NET Framework dump can be made here. The operation then comes from the ProxyOperationRuntime the stack holds (a
    /// Framework transparent proxy leaves no frame naming it), and the advice is Framework's.
    /// </summary>
    [Test]
    public void Framework_names_give_the_same_verdict_with_the_operation_from_the_heap()
    {
        DumpMaker.SampleDump dump = DumpMaker.DumpOfSampleWithOutput("WcfFrameworkNames", "wcfhang-framework-names.core");
        Diagext.Result result = Diagext.Run("wcfhang", dump.Path, "--json");
        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stdout + result.Stderr);
        JsonElement finding = result.Findings.Single();
        Assert.That(finding.GetProperty("kind").GetString(), Is.EqualTo("self-deadlock"));
        Assert.That(finding.GetProperty("operation").GetString(), Is.EqualTo("Commit"));
        Assert.That(finding.GetProperty("action").GetString(), Is.EqualTo("urn:diagext:wcfhang/ILedger/Commit"));
        Assert.That(finding.GetProperty("messageId").GetString(), Does.Match("^urn:uuid:[0-9a-f-]{36}$"));
        Assert.That(finding.GetProperty("pumpAcquired").GetInt32(), Is.EqualTo(1));
        Assert.That(finding.GetProperty("timeoutSeconds").GetDouble(), Is.EqualTo(1800), "the binder's defaultSendTimeout: no ServiceChannel here");
        int managed = int.Parse(System.Text.RegularExpressions.Regex.Match(dump.Output, @"managed thread (\d+)").Groups[1].Value);
        Assert.That(finding.GetProperty("threads")[0].GetProperty("managedThreadId").GetInt32(), Is.EqualTo(managed));
        Assert.That(finding.GetProperty("advice").GetString(), Does.Contain("On .NET Framework"));
    }
}
