using System.Text.Json;
using System.Text.RegularExpressions;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Hang;

/// <summary>
/// hang on the finalizer thread (issue 40, part 2), two runs of each samples/Hangs mode. The ground truth, written
/// before diagext was first run on these modes:
/// - finalizer: one blocked-finalizer hazard naming the thread the sample calls "finalizer" (the runtime's finalizer
///   thread: it printed its managed id from inside CacheEntry's Finalize), waiting in Monitor.Enter in
///   Hangs.BlockedFinalizer+CacheEntry.Finalize for the System.Object in static Hangs.BlockedFinalizer.CacheSync, held by
///   "holder", which is itself blocked on a ManualResetEventSlim only its own stack holds (so: a hazard, not a note);
///   5,000 Hangs.PendingHandle objects ready for finalization and that the top type (the runtime adds a few of its own:
///   SOS's finalizequeue said "Ready for finalization 5,001 objects" on the first dump, the other a Gen2GcCallback). The
///   holder's own wait is the existing blocked-chain warning (an event nothing references) beside it.
/// - finalizerslow: a blocked-finalizer note (exit code 0), state busy, the finalizer sleeping in
///   Hangs.SlowFinalizer+SlowResource.Finalize, between 1,000 and 4,000 SlowResource objects queued (the queue drains at
///   20 a second from 4,000), no lock.
/// - healthy, contended: no blocked-finalizer finding (the finalizer is idle: no managed frame).
/// - eventsource (the runtime's EventSource/EventListener, code nobody here wrote; expected from reading dotnet/runtime's
///   EventListener.CallBackForExistingEventSources, which calls an EventSourceCreated handler inside
///   <c>lock (EventListenersLock)</c>, and EventProvider.Dispose(bool), which ~EventProvider calls and which takes that
///   lock): a blocked-finalizer finding naming the finalizer thread (the sample's probe printed its managed id), in
///   Monitor.Enter under EventProvider.Dispose, waiting for the lock object EventListenersLock returns, its static
///   System.Diagnostics.Tracing.EventListener.s_EventSources (a List of WeakReference&lt;EventSource&gt;), held by
///   "listener", which waits in Task.Wait on the promise of static Hangs.ListenerBlocksFinalizer.Configured: a warning,
///   not a hazard (a static still reaches the promise, so code may complete it); the dropped DemoSources (200) among
///   the objects waiting for finalization. Seen on the first run, not predicted: each DemoSource's two
///   EventSource+OverrideEventProvider objects queue too (399 of them), the top type; 199 DemoSources.
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class HangFinalizerTests
{
    private static IEnumerable<TestCaseData> Cases(params string[] modes) =>
        modes.SelectMany(m => HangSample.AllRuns.Select(r => new TestCaseData(m, r).SetArgDisplayNames(m, $"run {r}")));

    private static IEnumerable<TestCaseData> BlockedRuns() => Cases("finalizer");

    private static IEnumerable<TestCaseData> SlowRuns() => Cases("finalizerslow");

    private static IEnumerable<TestCaseData> ListenerRuns() => Cases("eventsource");

    private static IEnumerable<TestCaseData> QuietRuns() => Cases("healthy").Append(new TestCaseData("contended", 1).SetArgDisplayNames("contended", "run 1"));

    private static int Managed(JsonElement e) => e.GetProperty("managedThreadId").GetInt32();

    private static uint Os(JsonElement finding, int managed) =>
        finding.GetProperty("threads").EnumerateArray().Single(t => Managed(t) == managed).GetProperty("osThreadId").GetUInt32();

    /// <summary>"finalizable Hangs.PendingHandle 5000": what the sample allocated and left to the finalizer.</summary>
    private static (string Type, int Count) Allocated(HangSample.Dump dump)
    {
        Match m = Regex.Match(dump.Output, @"^finalizable (\S+) (\d+)$", RegexOptions.Multiline);
        Assert.That(m.Success, dump.Output);
        return (m.Groups[1].Value, int.Parse(m.Groups[2].Value));
    }

    private static JsonElement FinalizerFinding(Diagext.Result result) =>
        result.Findings.Single(f => f.GetProperty("kind").GetString() == "blocked-finalizer");

    [TestCaseSource(nameof(BlockedRuns))]
    public void A_finalizer_blocked_on_a_lock_whose_holder_is_itself_blocked_is_a_hazard(string mode, int run)
    {
        HangSample.Dump dump = HangSample.Of(mode, run);
        Diagext.Result result = Diagext.Run("hang", dump.Path, "--json");
        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stdout + result.Stderr);
        JsonElement finding = FinalizerFinding(result);
        Assert.That(finding.GetProperty("severity").GetString(), Is.EqualTo("hazard"), finding.ToString());
        Assert.That(finding.GetProperty("timeSettles").GetBoolean(), Is.False);

        int finalizerId = dump.Thread("finalizer").ManagedId, holderId = dump.Thread("holder").ManagedId;
        JsonElement finalizer = finding.GetProperty("finalizer");
        Assert.That(finalizer.GetProperty("osThreadId").GetUInt32(), Is.EqualTo(Os(finding, finalizerId)), "the finalizer is the thread the sample's Finalize ran on");
        Assert.That(finalizer.GetProperty("state").GetString(), Is.EqualTo("blocked"));
        Assert.That(finalizer.GetProperty("finalizing").GetString(), Is.EqualTo("Hangs.BlockedFinalizer+CacheEntry"));

        JsonElement cacheSync = finding.GetProperty("locks").EnumerateArray().Single();
        Assert.That(cacheSync.GetProperty("path").GetString(), Is.EqualTo("Hangs.BlockedFinalizer.CacheSync"));
        Assert.That(cacheSync.GetProperty("type").GetString(), Is.EqualTo(Regex.Match(dump.Output, @"^lock CacheSync (\S+)$", RegexOptions.Multiline).Groups[1].Value));
        Assert.That(cacheSync.GetProperty("kind").GetString(), Is.EqualTo("monitor"));
        Assert.That(cacheSync.GetProperty("heldBy").EnumerateArray().Select(t => t.GetUInt32()), Is.EqualTo(new[] { Os(finding, holderId) }));
        Assert.That(finding.GetProperty("threads").EnumerateArray().Select(Managed), Is.EqualTo(new[] { finalizerId, holderId }), "the finalizer, then who blocks it; no other thread");
        Assert.That(finding.GetProperty("threads")[0].GetProperty("frame").GetString(), Is.EqualTo("Monitor.Enter"));

        (string type, int count) = Allocated(dump);
        long ready = finalizer.GetProperty("readyForFinalization").GetInt64();
        Assert.That(ready, Is.InRange(count, count + 100), "the sample's objects, plus the few the runtime itself left to the finalizer");
        Assert.That(finalizer.GetProperty("typesRead").GetInt32(), Is.EqualTo(ready), "under the cap: every type read");
        JsonElement top = finalizer.GetProperty("topTypes")[0];
        Assert.That((top.GetProperty("type").GetString(), top.GetProperty("count").GetInt32()), Is.EqualTo((type, count)));
        Assert.That(finding.GetProperty("summary").GetString(), Does.Contain("is itself blocked on a ManualResetEventSlim").And.Contain($"{ready:N0} objects wait for finalization"));

        JsonElement holderChain = result.Findings.Single(f => f.GetProperty("kind").GetString() == "blocked-chain");
        Assert.That(holderChain.GetProperty("threads").EnumerateArray().Select(Managed), Is.EqualTo(new[] { holderId }), "the holder's own wait, as hang reported it before");
    }

    [TestCaseSource(nameof(BlockedRuns))]
    public void Text_names_the_finalizer_its_lock_the_holder_and_the_queue(string mode, int run)
    {
        HangSample.Dump dump = HangSample.Of(mode, run);
        Diagext.Result result = Diagext.Run("hang", dump.Path);
        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stderr);
        (string type, int count) = Allocated(dump);
        Assert.That(result.Stdout, Does.Match($@"\[hang\] The finalizer thread 0x[0-9a-f]+ is blocked: waits for Monitor CacheSync 0x[0-9a-f]+ held by thread 0x[0-9a-f]+ \(managed {dump.Thread("holder").ManagedId}\); [\d,]+ objects wait for finalization"));
        Assert.That(result.Stdout, Does.Match($@"the finalizer thread 0x[0-9a-f]+ \(managed {dump.Thread("finalizer").ManagedId}\), in BlockedFinalizer\+CacheEntry\.Finalize, waits for CacheSync 0x[0-9a-f]+ held by 0x[0-9a-f]+ \(at Monitor\.Enter <- BlockedFinalizer\+CacheEntry\.Finalize\)"));
        Assert.That(result.Stdout, Does.Match($@"[\d,]+ objects wait for finalization \({Regex.Escape(type[(type.LastIndexOf('.') + 1)..])} {count:N0}"));
    }

    [TestCaseSource(nameof(SlowRuns))]
    public void A_finalizer_busy_in_a_slow_Finalize_with_a_long_queue_is_a_note(string mode, int run)
    {
        HangSample.Dump dump = HangSample.Of(mode, run);
        Diagext.Result result = Diagext.Run("hang", dump.Path, "--json");
        Assert.That(result.ExitCode, Is.Zero, result.Stdout + result.Stderr);
        JsonElement finding = result.Findings.Single();
        Assert.That(finding.GetProperty("kind").GetString(), Is.EqualTo("blocked-finalizer"));
        Assert.That(finding.GetProperty("severity").GetString(), Is.EqualTo("information"));
        Assert.That(finding.GetProperty("timeSettles").GetBoolean(), Is.True);
        JsonElement finalizer = finding.GetProperty("finalizer");
        Assert.That(finalizer.GetProperty("state").GetString(), Is.EqualTo("busy"));
        Assert.That(finalizer.GetProperty("finalizing").GetString(), Is.EqualTo("Hangs.SlowFinalizer+SlowResource"));
        Assert.That(Managed(finding.GetProperty("threads").EnumerateArray().Single()), Is.EqualTo(dump.Thread("finalizer").ManagedId));
        Assert.That(finding.GetProperty("locks").GetArrayLength(), Is.Zero);
        (string type, int count) = Allocated(dump);
        JsonElement top = finalizer.GetProperty("topTypes")[0];
        Assert.That(top.GetProperty("type").GetString(), Is.EqualTo(type));
        Assert.That(top.GetProperty("count").GetInt32(), Is.InRange(1000, count), "drains at 20 a second: most are still queued when the dump is taken");
    }

    [TestCaseSource(nameof(QuietRuns))]
    public void An_idle_finalizer_gives_no_finalizer_finding(string mode, int run)
    {
        Diagext.Result result = Diagext.Run("hang", HangSample.Of(mode, run).Path, "--json");
        Assert.That(result.ExitCode, Is.Zero, result.Stdout + result.Stderr);
        Assert.That(result.Findings.Where(f => f.GetProperty("kind").GetString() == "blocked-finalizer"), Is.Empty);
    }

    [TestCaseSource(nameof(ListenerRuns))]
    public void The_runtime_EventSource_finalizer_blocked_by_a_listener_that_waits_under_its_lock(string mode, int run)
    {
        HangSample.Dump dump = HangSample.Of(mode, run);
        Diagext.Result result = Diagext.Run("hang", dump.Path, "--json");
        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stdout + result.Stderr);
        JsonElement finding = FinalizerFinding(result);
        Assert.That(finding.GetProperty("severity").GetString(), Is.EqualTo("warning"), "a static still reaches the promise the holder waits on");
        int finalizerId = dump.Thread("finalizer").ManagedId, listenerId = dump.Thread("listener").ManagedId;
        Assert.That(finding.GetProperty("finalizer").GetProperty("osThreadId").GetUInt32(), Is.EqualTo(Os(finding, finalizerId)));
        JsonElement finalizerThread = finding.GetProperty("threads")[0];
        Assert.That(Managed(finalizerThread), Is.EqualTo(finalizerId));
        Assert.That(finalizerThread.GetProperty("stack").EnumerateArray().Select(f => f.GetString()), Does.Contain("System.Diagnostics.Tracing.EventProvider.Dispose(Boolean)"));
        JsonElement listenersLock = finding.GetProperty("locks").EnumerateArray().Single();
        Assert.That(listenersLock.GetProperty("path").GetString(), Is.EqualTo("System.Diagnostics.Tracing.EventListener.s_EventSources"));
        Assert.That(listenersLock.GetProperty("type").GetString(), Does.StartWith("System.Collections.Generic.List<System.WeakReference<System.Diagnostics.Tracing.EventSource>"));
        Assert.That(listenersLock.GetProperty("heldBy").EnumerateArray().Select(t => t.GetUInt32()), Is.EqualTo(new[] { Os(finding, listenerId) }));
        Assert.That(finding.GetProperty("summary").GetString(), Does.Contain("is itself blocked on a promise task").And.Contain("the heap may still reach it"));
        (string type, int count) = Allocated(dump);
        JsonElement sources = finding.GetProperty("finalizer").GetProperty("topTypes").EnumerateArray().Single(t => t.GetProperty("type").GetString() == type);
        Assert.That(sources.GetProperty("count").GetInt32(), Is.InRange(count - 5, count), "the dropped EventSources wait, but for the few finalized before the one that blocked");
    }
}
