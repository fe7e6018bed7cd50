using System.Text.Json;
using DiagExt.Tests.Analysis;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Hang;

/// <summary>
/// hang on dumps of samples/Hangs' lock-order deadlocks (two runs of each): one deadlock finding whose cycle is the
/// threads the sample says it blocked, in wait order, each step naming the lock it waits for by the static field
/// that holds it, and the bystander apart.
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class HangDeadlockTests
{
    private static IEnumerable<TestCaseData> Cases(params string[] modes) =>
        modes.SelectMany(m => HangSample.AllRuns.Select(r => new TestCaseData(m, r).SetArgDisplayNames(m, $"run {r}")));

    private static IEnumerable<TestCaseData> Cycles() => Cases("monitor2", "monitor3", "lock3");

    [TestCaseSource(nameof(Cycles))]
    public void A_lock_order_deadlock_gives_the_cycle_of_the_blocked_threads_with_their_locks(string mode, int run)
    {
        HangSample.Dump dump = HangSample.Of(mode, run);
        Diagext.Result result = Diagext.Run("hang", dump.Path, "--json");
        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stdout + result.Stderr);

        JsonElement finding = result.Findings.Single();
        Assert.That(finding.GetProperty("detector").GetString(), Is.EqualTo("hang"));
        Assert.That(finding.GetProperty("kind").GetString(), Is.EqualTo("deadlock"));
        Assert.That(finding.GetProperty("severity").GetString(), Is.EqualTo("hazard"));
        string type = mode == "lock3" ? "System.Threading.Lock" : "System.Object";
        string owner = mode == "lock3" ? "Hangs.LockDeadlock." : "Hangs.MonitorDeadlock.";
        var locks = finding.GetProperty("locks").EnumerateArray().ToDictionary(l => l.GetProperty("address").GetString()!);
        Assert.That(locks.Values.Select(l => l.GetProperty("type").GetString()), Is.All.EqualTo(type));
        Assert.That(locks.Values.Select(l => l.GetProperty("kind").GetString()), Is.All.EqualTo(mode == "lock3" ? "lock" : "monitor"));

        var inCycle = dump.Threads.Where(t => t.Holds != "nothing").ToList();
        JsonElement[] cycle = finding.GetProperty("cycle").EnumerateArray().ToArray();
        Assert.That(cycle.Select(s => s.GetProperty("managedThreadId").GetInt32()), Is.EquivalentTo(inCycle.Select(t => t.ManagedId)), dump.Output);
        for (int i = 0; i < cycle.Length; i++)
        {
            JsonElement step = cycle[i], next = cycle[(i + 1) % cycle.Length];
            HangSample.Blocked truth = inCycle.Single(t => t.ManagedId == step.GetProperty("managedThreadId").GetInt32());
            JsonElement waited = locks[step.GetProperty("waitsFor").GetString()!];
            Assert.That(waited.GetProperty("path").GetString(), Is.EqualTo(owner + truth.Waits), $"thread {truth.Name} waits for {truth.Waits}");
            Assert.That(locks[step.GetProperty("holds").GetString()!].GetProperty("path").GetString(), Is.EqualTo(owner + truth.Holds), $"thread {truth.Name} holds {truth.Holds}");
            Assert.That(waited.GetProperty("heldBy").EnumerateArray().Select(t => t.GetUInt32()), Is.EqualTo(new[] { next.GetProperty("osThreadId").GetUInt32() }), "held by the next thread of the cycle");
            Assert.That(step.GetProperty("frame").GetString(), Is.EqualTo(mode == "lock3" ? "Lock.EnterScope" : "Monitor.Enter"));
            Assert.That(step.GetProperty("callerFrame").GetString(), Does.EndWith("Deadlock.Take"));
        }

        JsonElement[] threads = finding.GetProperty("threads").EnumerateArray().ToArray();
        var bystanders = dump.Threads.Where(t => t.Holds == "nothing").ToList();
        Assert.That(threads.Where(t => t.GetProperty("role").GetString()!.StartsWith("bystander")).Select(t => t.GetProperty("managedThreadId").GetInt32()),
            Is.EquivalentTo(bystanders.Select(b => b.ManagedId)), "the bystander listed apart, and only it");
        Assert.That(threads.Select(t => t.GetProperty("managedThreadId").GetInt32()), Is.EquivalentTo(dump.Threads.Select(t => t.ManagedId)), "no other thread is named");
    }

    [TestCaseSource(nameof(Cycles))]
    public void Text_prints_the_cycle_as_a_chain(string mode, int run)
    {
        HangSample.Dump dump = HangSample.Of(mode, run);
        Diagext.Result result = Diagext.Run("hang", dump.Path);
        Assert.That(result.ExitCode, Is.EqualTo(1));
        foreach (HangSample.Blocked t in dump.Threads.Where(t => t.Holds != "nothing"))
            Assert.That(result.Stdout, Does.Match($@"thread 0x[0-9a-f]+ \(managed {t.ManagedId}\) holds {t.Holds} 0x[0-9a-f]+, waits for {t.Waits} 0x[0-9a-f]+ held by thread 0x[0-9a-f]+ \(at "));
        Assert.That(result.Stdout, Does.Contain("fix: Take locks in one global order"));
    }

    [Test]
    public void Dml_links_each_thread_and_lock_of_the_cycle()
    {
        HangSample.Dump dump = HangSample.Of("monitor3", 1);
        JsonElement finding = Diagext.Run("hang", dump.Path, "--json").Findings.Single();
        Diagext.Result dml = Diagext.Run("hang", dump.Path, "--format", "dml");
        Assert.That(DmlChecker.Problems(dml.Stdout), Is.Empty, dml.Stdout);
        IReadOnlyList<string> links = DmlChecker.LinkCommands(dml.Stdout);
        foreach (JsonElement step in finding.GetProperty("cycle").EnumerateArray())
        {
            Assert.That(links, Has.Member($"~~[0x{step.GetProperty("osThreadId").GetUInt32():x}]s; !clrstack"));
            Assert.That(links, Has.Member($"!DumpObj /d {step.GetProperty("waitsFor").GetString()}"));
        }
    }

    [TestCaseSource(nameof(UpgradeRuns))]
    public void A_reader_writer_upgrade_deadlock_names_the_reader_through_its_thread_statics(string mode, int run)
    {
        HangSample.Dump dump = HangSample.Of(mode, run);
        Diagext.Result result = Diagext.Run("hang", dump.Path, "--json");
        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stdout + result.Stderr);
        JsonElement finding = result.Findings.Single();
        Assert.That(finding.GetProperty("kind").GetString(), Is.EqualTo("deadlock"));
        var locks = finding.GetProperty("locks").EnumerateArray().ToDictionary(l => l.GetProperty("path").GetString()!);
        Assert.That(locks.Keys, Is.EquivalentTo(new[] { "Hangs.UpgradeDeadlock.CacheLock", "Hangs.UpgradeDeadlock.RefreshGate" }));
        JsonElement[] cycle = finding.GetProperty("cycle").EnumerateArray().ToArray();
        JsonElement reader = cycle.Single(s => s.GetProperty("managedThreadId").GetInt32() == dump.Thread("reader").ManagedId);
        JsonElement refresher = cycle.Single(s => s.GetProperty("managedThreadId").GetInt32() == dump.Thread("refresher").ManagedId);
        Assert.That(reader.GetProperty("holds").GetString(), Is.EqualTo(locks["Hangs.UpgradeDeadlock.CacheLock"].GetProperty("address").GetString()), "the read lock, seen only in the reader's t_rwc");
        Assert.That(reader.GetProperty("waitsFor").GetString(), Is.EqualTo(locks["Hangs.UpgradeDeadlock.RefreshGate"].GetProperty("address").GetString()));
        Assert.That(refresher.GetProperty("frame").GetString(), Is.EqualTo("ReaderWriterLockSlim.EnterWriteLock"));
        Assert.That(locks["Hangs.UpgradeDeadlock.CacheLock"].GetProperty("heldBy").EnumerateArray().Select(t => t.GetUInt32()),
            Is.EquivalentTo(new[] { reader.GetProperty("osThreadId").GetUInt32(), refresher.GetProperty("osThreadId").GetUInt32() }), "the reader (read) and the refresher (upgradeable)");
        Assert.That(finding.GetProperty("advice").GetString(), Does.Contain("ReaderWriterLockSlim read lock"));
    }

    private static IEnumerable<TestCaseData> UpgradeRuns() => Cases("rwlock");

    [TestCaseSource(nameof(ChainRuns))]
    public void A_chain_behind_a_sleeping_holder_is_a_note_naming_the_holder_and_both_waiters(string mode, int run)
    {
        HangSample.Dump dump = HangSample.Of(mode, run);
        Diagext.Result result = Diagext.Run("hang", dump.Path, "--json");
        Assert.That(result.ExitCode, Is.Zero, result.Stdout + result.Stderr);

        JsonElement finding = result.Findings.Single();
        Assert.That(finding.GetProperty("kind").GetString(), Is.EqualTo("blocked-chain"));
        Assert.That(finding.GetProperty("severity").GetString(), Is.EqualTo("information"), "one dump cannot tell it from contention (HangSeriesTests: two can)");
        HangSample.Blocked holder = dump.Threads.Single(t => t.Name == "holder");
        JsonElement[] threads = finding.GetProperty("threads").EnumerateArray().ToArray();
        Assert.That(threads[0].GetProperty("managedThreadId").GetInt32(), Is.EqualTo(holder.ManagedId), "the chain's end comes first");
        Assert.That(threads.Select(t => t.GetProperty("managedThreadId").GetInt32()), Is.EquivalentTo(dump.Threads.Select(t => t.ManagedId)), dump.Output);
        Assert.That(finding.GetProperty("locks").EnumerateArray().Select(l => l.GetProperty("path").GetString()),
            Is.EquivalentTo(new[] { "Hangs.BlockedChain.AccountLock", "Hangs.BlockedChain.LedgerLock" }));
    }

    private static IEnumerable<TestCaseData> ChainRuns() => Cases("chain");

    [TestCaseSource(nameof(HealthyRuns))]
    public void A_busy_contended_healthy_process_gives_no_warning(string mode, int run)
    {
        Diagext.Result result = Diagext.Run("hang", HangSample.Of(mode, run).Path, "--json");
        Assert.That(result.ExitCode, Is.Zero, result.Stdout + result.Stderr);
        // A busy process caught at an instant may hold two threads queued one behind the other on a lock whose owner runs
        // (seen in CI: SemaphoreSlim's own monitor in this mode). One dump cannot tell that from a stuck chain, so hang says
        // so in a note (issue 42); anything else, or anything above a note, is wrong here.
        foreach (JsonElement finding in result.Findings)
        {
            Assert.That(finding.GetProperty("kind").GetString(), Is.EqualTo("blocked-chain"), result.Stdout);
            Assert.That(finding.GetProperty("severity").GetString(), Is.EqualTo("information"), result.Stdout);
            Assert.That(finding.GetProperty("timeSettles").GetBoolean(), Is.True, "the note says what settles it");
        }
        Assert.That(result.Json.GetProperty("detectors")[0].GetProperty("reason").GetString(), Does.Match(@"^\d+ threads? in a wait"), "not silence: the waits were read");
    }

    /// <summary>Busy and contended; and threads blocked on a Task.Delay and on a promise a running thread holds (taskhealthy).</summary>
    private static IEnumerable<TestCaseData> HealthyRuns() => Cases("healthy", "taskhealthy");

    [Test]
    public void Analyze_runs_hang_beside_the_other_detectors()
    {
        Diagext.Result result = Diagext.Run("analyze", HangSample.Of("monitor2", 1).Path, "--json");
        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stderr);
        Assert.That(result.Findings.Select(f => f.GetProperty("detector").GetString() + "/" + f.GetProperty("kind").GetString()), Is.EqualTo(new[] { "hang/deadlock" }));
    }

    /// <summary>One wait source that throws (corrupt data it trips on) costs its own waits, said in a note; the others' cycle stands.</summary>
    [Test]
    public void A_failing_wait_source_is_noted_and_the_cycle_still_found()
    {
        Environment.SetEnvironmentVariable(DetectorFailureTests.Hook, "hang/SocketWaits");
        Diagext.Result result;
        try
        {
            result = Diagext.Run("hang", HangSample.Of("monitor2", 1).Path);
        }
        finally
        {
            Environment.SetEnvironmentVariable(DetectorFailureTests.Hook, null);
        }
        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stdout + result.Stderr);
        Assert.That(result.Stdout, Does.Contain("[hang] Deadlock: 2 threads").And.Contain("SocketWaits failed (InvalidOperationException: failure forced by").And.Contain("its waits are not in the graph"));
    }
}

/// <summary>The batch HTML report draws each cycle as an inline SVG: no script, every label escaped, one node per thread of the cycle.</summary>
[TestFixture]
[Category(TestKind.Dump)]
public class HangBatchTests
{
    [Test]
    public void A_batch_html_report_draws_each_cycle_and_counts_the_hang_column()
    {
        string folder = Path.Combine(Repo.WorkDirectory, "hang-batch");
        if (Directory.Exists(folder))
            Directory.Delete(folder, recursive: true);
        Directory.CreateDirectory(folder);
        foreach (string mode in new[] { "monitor3", "semaphore", "healthy" })
            DumpLink.Place(HangSample.Of(mode, 1).Path, Path.Combine(folder, $"{mode}.core"));
        string html = Path.Combine(folder, "report.html");
        string markdown = Path.Combine(folder, "report.md");

        Diagext.Result result = Diagext.Run("analyze", folder, "--html", html, "--markdown", markdown);

        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stdout + result.Stderr);
        string page = File.ReadAllText(html);
        var svgs = System.Text.RegularExpressions.Regex.Matches(page, "<svg class=\"ring\".*?</svg>", System.Text.RegularExpressions.RegexOptions.Singleline).Select(m => m.Value).ToList();
        Assert.That(svgs, Has.Count.EqualTo(2), "one drawing per cycle: the Monitor cycle and the async one");
        foreach (string svg in svgs)
            Assert.DoesNotThrow(() => System.Xml.Linq.XElement.Parse(svg), "well-formed SVG");
        Assert.That(svgs.Select(s => System.Text.RegularExpressions.Regex.Matches(s, "<rect ").Count), Is.EquivalentTo(new[] { 3, 2 }), "a node per member of each cycle");
        Assert.That(svgs.Any(s => s.Contains("waits for AccountLock 0x")), Is.True);
        Assert.That(svgs.Any(s => s.Contains("SemaphoreDeadlock.PlaceOrderAsync")), Is.True);
        Assert.That(page, Does.Not.Contain("<script src"), "nothing from outside");

        string[] lines = File.ReadAllLines(markdown);
        string header = lines.First(l => l.StartsWith("| dump |", StringComparison.Ordinal));
        int column = header.Split('|').Select(c => c.Trim()).ToList().IndexOf("hang");
        Assert.That(column, Is.GreaterThan(0), header);
        string Cell(string dump) => lines.First(l => l.Contains($"{dump}.core", StringComparison.Ordinal) && l.StartsWith('|')).Split('|')[column].Trim();
        Assert.That((Cell("monitor3"), Cell("semaphore"), Cell("healthy")), Is.EqualTo(("1", "1", "0")));
    }
}
