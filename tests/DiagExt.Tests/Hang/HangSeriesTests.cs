using System.Text.Json;
using DiagExt.Core.Analysis;
using DiagExt.Core.Catalog;
using DiagExt.Core.Detectors.Hang;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Hang;

/// <summary>
/// Time as evidence (issue 42): what one dump may claim about a chain, and what dumps of one process taken seconds apart
/// prove. Ground truth, written from the samples' code before diagext ran on them:
/// - chain (samples/Hangs/BlockedChain.cs): "holder" takes AccountLock and sleeps forever inside it; "second" holds
///   LedgerLock and waits for AccountLock; "third" waits for LedgerLock. Nothing ever moves. One dump: a blocked-chain
///   note (exit 0) naming the three, saying a second dump or a live look settles it. Two dumps 3 s apart: one
///   stuck-chain hazard (exit 1) naming the same three threads, "for at least" the time between the dumps (2 s or more,
///   the dumps' names carry whole seconds), resting on unchanged registers and stacks.
/// - contended (samples/Hangs/Contended.cs): four threads take one lock in turn, the holder sometimes sleeping 3 ms
///   inside; one dump often shows a holder with two or three threads blocked behind it. Every dump: exit 0, no hazard,
///   no warning. Two dumps 3 s apart: exit 0, no stuck-chain; a chain seen in both dumps is reported as moved.
/// - chaingc: the chain, beside two threads that allocate without end and force compacting collections, so the GC may
///   move the locks and rewrites references on the blocked threads' stacks between the dumps. Two dumps 3 s apart:
///   still one stuck-chain hazard naming the same three threads (the GC's work is not the threads running).
/// - two processes of the chain sample (two different pids): their dumps never form a series.
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class HangSeriesTests
{
    private static readonly TimeSpan Apart = TimeSpan.FromSeconds(3);

    [Test]
    public void One_dump_of_a_chain_behind_a_sleeping_holder_is_a_note_that_says_what_settles_it()
    {
        HangSample.Dump dump = HangSample.Of("chain", 1);
        Diagext.Result result = Diagext.Run("hang", dump.Path, "--json");
        Assert.That(result.ExitCode, Is.Zero, "one dump cannot tell a chain from contention: " + result.Stdout + result.Stderr);
        JsonElement finding = result.Findings.Single();
        Assert.That(finding.GetProperty("kind").GetString(), Is.EqualTo("blocked-chain"));
        Assert.That(finding.GetProperty("severity").GetString(), Is.EqualTo("information"));
        Assert.That(finding.GetProperty("timeSettles").GetBoolean(), Is.True);
        Assert.That(finding.GetProperty("summary").GetString(), Does.Contain("a second dump in 5-10 s").And.Contain("a live look at the process"));
        Assert.That(finding.GetProperty("threads").EnumerateArray().Select(t => t.GetProperty("managedThreadId").GetInt32()),
            Is.EquivalentTo(dump.Threads.Select(t => t.ManagedId)), dump.Output);
        Assert.That(finding.GetProperty("threads").EnumerateArray().Select(t => t.GetProperty("fingerprint").GetString()), Is.All.Match("^[0-9a-f]{16}$"));
    }

    /// <summary>
    /// Two dumps of the chain sample, analysed as a series. A dump createdump took in the middle of a garbage collection
    /// (chaingc forces them without end) holds no readable lock owners, and DiagExt says so and asks for the dump again
    /// ("read during a garbage collection ... take the dump again"), and the series says that dump cannot tell and asks for
    /// it again. Only then, and only when no hazard came out, is the series taken again, as a user would, up to three times.
    /// </summary>
    private static (DumpSeriesMaker.Series, Diagext.Result) StuckSeries(string mode)
    {
        for (int attempt = 1; ; attempt++)
        {
            DumpSeriesMaker.Series series = DumpSeriesMaker.Of("Hangs", mode, 2, Apart, again: attempt > 1);
            Diagext.Result result = Diagext.Run("analyze", series.Dumps[0], series.Dumps[1], "--json", "--quiet");
            if (result.ExitCode == 1 || !result.Stdout.Contains("read during a garbage collection", StringComparison.Ordinal))
                return (series, result);
            if (attempt == 3)
                Assert.Inconclusive($"three series of {mode} each had a dump taken during a garbage collection, which DiagExt asks to take again");
        }
    }

    [TestCase("chain")]
    [TestCase("chaingc")]
    public void Two_dumps_of_a_stuck_chain_are_one_series_with_a_stuck_chain_hazard_and_the_time(string mode)
    {
        var (series, result) = StuckSeries(mode);
        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stdout + result.Stderr);
        JsonElement s = result.Json.GetProperty("series").EnumerateArray().Single();
        Assert.That(s.GetProperty("dumps").EnumerateArray().Select(d => d.GetProperty("name").GetString()), Is.EqualTo(series.Dumps), "in time order");
        Assert.That(s.GetProperty("timeSource").GetString(), Does.Contain("file names"));
        Assert.That(s.GetProperty("spanSeconds").GetDouble(), Is.InRange(2.0, 30.0));
        Assert.That(s.GetProperty("moved").EnumerateArray(), Is.Empty);
        JsonElement stuck = s.GetProperty("findings").EnumerateArray().Single();
        Assert.That(stuck.GetProperty("kind").GetString(), Is.EqualTo("stuck-chain"));
        Assert.That(stuck.GetProperty("severity").GetString(), Is.EqualTo("hazard"));
        Assert.That(stuck.GetProperty("title").GetString(), Does.Match(@"2 threads stuck behind thread 0x[0-9a-f]+ for at least \d+\.\d s across 2 dumps"));
        Assert.That(stuck.GetProperty("summary").GetString(), Does.Contain("registers and stack words unchanged"));
        var blocked = HangSampleThreads(series.Output);
        Assert.That(stuck.GetProperty("threads").EnumerateArray().Select(t => t.GetProperty("managedThreadId").GetInt32()), Is.EquivalentTo(blocked), series.Output);
        // The top-level findings carry it too, under the last dump, with the first as its other name.
        JsonElement top = result.Findings.Single(f => f.GetProperty("kind").GetString() == "stuck-chain");
        Assert.That(top.GetProperty("dump").GetString(), Is.EqualTo(series.Dumps[1]));
        Assert.That(top.GetProperty("alsoIn").EnumerateArray().Select(a => a.GetString()), Is.EqualTo(new[] { series.Dumps[0] }));
        // Each thread's wait per dump, the second the same as the first.
        JsonElement[] threads = s.GetProperty("threads").EnumerateArray().ToArray();
        Assert.That(threads.Select(t => t.GetProperty("managedThreadId").GetInt32()), Is.SupersetOf(blocked));
        foreach (JsonElement t in threads)
            Assert.That(t.GetProperty("waits")[1].GetProperty("sameAsBefore").GetBoolean(), Is.True, t.ToString());

        Diagext.Result text = Diagext.Run("analyze", series.Dumps[0], series.Dumps[1], "--quiet");
        Assert.That(text.Stdout, Does.Contain("series: pid ").And.Contain("stuck: [hang] 2 threads stuck behind thread"), text.Stdout);
    }

    [Test]
    public void Two_dumps_of_a_busy_contended_process_give_no_warning_and_say_what_moved()
    {
        DumpSeriesMaker.Series series = DumpSeriesMaker.Of("Hangs", "contended", 2, Apart);
        Diagext.Result result = Diagext.Run("analyze", series.Folder, "--json", "--quiet");
        Assert.That(result.ExitCode, Is.Zero, result.Stdout + result.Stderr);
        Assert.That(result.Findings.Where(f => f.GetProperty("severity").GetString() != "information"), Is.Empty);
        JsonElement s = result.Json.GetProperty("series").EnumerateArray().Single();
        Assert.That(s.GetProperty("findings").EnumerateArray(), Is.Empty);
        bool chainInBoth = s.GetProperty("moved").EnumerateArray().Any(m => m.GetString()!.Contains(" moved: "));
        TestContext.Progress.WriteLine($"contended series: {s.GetProperty("moved")}");
        if (chainInBoth)
            Assert.That(s.GetProperty("moved").EnumerateArray().Select(m => m.GetString()), Has.Some.Match("0x[0-9a-f]+ (changed|used)"));
    }

    [Test]
    public void Dumps_of_two_processes_never_form_a_series()
    {
        string first = HangSample.Of("chain", 1).Path, second = HangSample.Of("chain", 2).Path;
        Diagext.Result result = Diagext.Run("analyze", first, second, "--json", "--quiet");
        Assert.That(result.ExitCode, Is.Zero, "two single dumps: notes only. " + result.Stdout + result.Stderr);
        Assert.That(result.Json.GetProperty("series").EnumerateArray(), Is.Empty);
    }

    [Test]
    public void A_damaged_dump_of_a_series_is_named_and_the_rest_still_compared()
    {
        DumpSeriesMaker.Series series = DumpSeriesMaker.Of("Hangs", "chain", 2, Apart);
        string folder = WorkFolder.Fresh("series", "chain-damaged");
        foreach (string dump in series.Dumps)
            DumpLink.Place(dump, Path.Combine(folder, Path.GetFileName(dump)));
        // A third dump of the series, cut short as a full disk leaves one: it has the series' name and a later time.
        long later = long.Parse(Path.GetFileNameWithoutExtension(series.Dumps[1]).Split('_')[1]) + 3;
        string cut = Path.Combine(folder, $"chain_{later}.core");
        using (FileStream source = File.OpenRead(series.Dumps[1]), target = File.Create(cut))
        {
            byte[] head = new byte[64 * 1024];
            target.Write(head, 0, source.Read(head));
        }
        Diagext.Result result = Diagext.Run("analyze", folder, "--json", "--quiet");
        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stdout + result.Stderr);
        JsonElement s = result.Json.GetProperty("series").EnumerateArray().Single();
        Assert.That(s.GetProperty("dumps").EnumerateArray().Select(d => d.GetProperty("compared").GetBoolean()), Is.EqualTo(new[] { true, true, false }));
        Assert.That(s.GetProperty("problems").EnumerateArray().Select(p => p.GetString()), Has.Some.Contain(Path.GetFileName(cut)).And.Some.Contain("not compared"));
        Assert.That(s.GetProperty("findings").EnumerateArray().Single().GetProperty("kind").GetString(), Is.EqualTo("stuck-chain"));
    }

    [Test]
    public void Dumps_whose_times_tie_are_compared_but_their_span_is_not_trusted()
    {
        DumpSeriesMaker.Series series = DumpSeriesMaker.Of("Hangs", "chain", 2, Apart);
        string folder = WorkFolder.Fresh("series", "chain-tied");
        // Both named with the first one's time: the names cannot order them.
        string time = Path.GetFileNameWithoutExtension(series.Dumps[0]).Split('_')[1];
        DumpLink.Place(series.Dumps[0], Path.Combine(folder, $"a_chain_{time}.core"));
        DumpLink.Place(series.Dumps[1], Path.Combine(folder, $"b_chain_{time}.core"));
        Diagext.Result result = Diagext.Run("analyze", folder, "--json", "--quiet");
        JsonElement s = result.Json.GetProperty("series").EnumerateArray().Single();
        Assert.That(s.TryGetProperty("spanSeconds", out _), Is.False, s.ToString());
        Assert.That(s.GetProperty("problems").EnumerateArray().Select(p => p.GetString()), Has.Some.Contain("have the same time"));
        Assert.That(s.GetProperty("findings").EnumerateArray().Single().GetProperty("title").GetString(), Does.Contain("across 2 dumps (their times are not known to go forward)"));
    }

    /// <summary>
    /// What a fresh-clone CI run met (a chaingc series): createdump caught one dump in the middle of a garbage collection,
    /// the runtime said its heap could not be walked, no lock owner could be read there, and the series called the chain
    /// "formed or cleared". Such a dump cannot tell whether a chain was there. Three real dumps of the chain sample, judged
    /// as the batch judges their reports; one report is then made to say what that dump's said (heap not walkable, no hang
    /// finding), since when createdump catches a collection is chance.
    /// </summary>
    [Test]
    public void A_dump_read_during_a_garbage_collection_neither_forms_nor_clears_a_chain()
    {
        DumpSeriesMaker.Series series = DumpSeriesMaker.Of("Hangs", "chain", 3, Apart);
        var snapshots = series.Dumps.Select(dump =>
        {
            Diagext.Result result = Diagext.Run("hang", dump, "--json");
            long epoch = long.Parse(Path.GetFileNameWithoutExtension(dump).Split('_')[1]);
            return new SeriesSnapshot(dump, DateTime.UnixEpoch.AddSeconds(epoch), DetectorCatalog.Json.Read(result.Stdout));
        }).ToList();
        var judge = new ChainSeries();
        Assert.That(judge.Judge(snapshots).Findings.Single().Title, Does.Contain("across 3 dumps"), "the three as they are");

        // The middle dump blind: the chain is judged on the other two, and the series says why.
        SeriesVerdicts middle = judge.Judge([snapshots[0], Blind(snapshots[1]), snapshots[2]]);
        Assert.That(middle.Findings.Single().Title, Does.Match(@"2 threads stuck behind thread 0x[0-9a-f]+ for at least \d+\.\d s across 2 dumps"));
        Assert.That(middle.Moved.Single(), Does.Contain($"dump 2 ({Path.GetFileName(series.Dumps[1])}) was read during a garbage collection").And.Contain("judged on the other 2"));

        // The first of two blind: nothing to settle it on, and it is not called formed or cleared.
        SeriesVerdicts first = judge.Judge([Blind(snapshots[0]), snapshots[1]]);
        Assert.That(first.Findings, Is.Empty);
        Assert.That(first.Moved.Single(), Does.Contain("is in 1 of 2 dumps, and dump 1").And.Contain("take that dump again").And.Not.Contain("formed or cleared"));

        // A dump that could see and shows no chain is still a chain that formed or cleared.
        SeriesVerdicts cleared = judge.Judge([snapshots[0], WithoutChain(snapshots[1], walkable: true)]);
        Assert.That(cleared.Moved.Single(), Does.Contain("formed or cleared"));
    }

    /// <summary>The snapshot as a dump read during a garbage collection reports it: heap not walkable, no hang finding.</summary>
    private static SeriesSnapshot Blind(SeriesSnapshot s) => WithoutChain(s, walkable: false);

    private static SeriesSnapshot WithoutChain(SeriesSnapshot s, bool walkable) => s with
    {
        Report = s.Report with
        {
            Outcomes = s.Report.Outcomes.Select(o => o.Detector == HangDetector.CommandName ? o with { Findings = [] } : o).ToList(),
            HeapPass = s.Report.HeapPass! with { Walkable = walkable },
        },
    };

    /// <summary>
    /// Issue 42's bar for one snapshot: a healthy busy process, dumped 20 times while it runs, gives exit 0 and no
    /// warning every time ('analyze', every detector). How many of the dumps showed a chain note is printed.
    /// </summary>
    [TestCase("contended")]
    [TestCase("healthy")]
    public void Twenty_dumps_of_a_busy_healthy_process_each_give_exit_0_and_no_warning(string mode)
    {
        const int dumps = 20;
        using SampleProcess sample = SampleProcess.StartAndWaitReady(SampleBuilder.Build("Hangs"), [mode], TimeSpan.FromMinutes(2), detached: true);
        int notes = 0;
        for (int i = 0; i < dumps; i++)
        {
            string dump = DumpMaker.Dump(sample.Pid, $"busy-{mode}-{i}.core");
            try
            {
                Diagext.Result result = Diagext.Run("analyze", dump, "--json");
                Assert.That(result.ExitCode, Is.Zero, $"dump {i + 1} of {dumps}: {result.Stdout}{result.Stderr}");
                Assert.That(result.Findings.Select(f => f.GetProperty("severity").GetString()), Is.All.EqualTo("information"), $"dump {i + 1}");
                notes += result.Findings.Count(f => f.GetProperty("kind").GetString() == "blocked-chain");
            }
            finally
            {
                File.Delete(dump);
            }
        }
        TestContext.Progress.WriteLine($"{mode}: {dumps} dumps, exit 0 each; {notes} blocked-chain notes among them");
        Assert.That(sample.HasExited, Is.False);
    }

    /// <summary>The managed ids the chain sample says it blocked.</summary>
    private static IReadOnlyList<int> HangSampleThreads(string output) => new HangSample.Dump("", output).Threads.Select(t => t.ManagedId).ToList();
}
