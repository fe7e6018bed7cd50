using System.Text.Json;
using DiagExt.Core.Targets;
using DiagExt.Tests.Hostile;
using DiagExt.Tests.Infrastructure;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Tests.Hang;

/// <summary>
/// hang on SynchronizationContext deadlocks ("don't block on async code", issue 40), two runs of each dump. The ground
/// truth, written before diagext was first run on them:
/// - synccontext: two findings, kind context-deadlock, hazards. "ui" blocks in .Result on LoadAsync, whose awaited
///   Task.Delay(10) has completed, so its continuation is posted into ui's own OneThreadContext queue (the path from the
///   context to it names the BlockingCollection); "ui2" blocks in .Result on SlowLoadAsync, whose Task.Delay(10 min)
///   still holds a SynchronizationContextAwaitTaskContinuation bound for ui2's context. Each context is its thread's
///   current one and no other thread's, each thread runs OneThreadContext.Pump below the wait; the two contexts differ.
/// - synccontexthealthy: "worker" blocks in .Result on a method awaiting with ConfigureAwait(false), "pumper" waits for
///   posts: no context-deadlock (no finding at all).
/// - samples/AsyncExDeadlock (Nito.AsyncEx.Context 5.1.2, its GROUND-TRUTH.md): one context-deadlock hazard on
///   "caller", in Task.Wait, Reports.LoadReportAsync at await 0, context AsyncContext+AsyncContextSynchronizationContext,
///   posted through AsyncContext, its TaskQueue and the BlockingCollection. Seen on the first run and kept: the first
///   frame of AsyncContext's own code on the thread is a lambda inside Execute (AsyncContext.&lt;Execute&gt;b__12_0), not
///   Execute itself, which the ground truth guessed.
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class HangContextDeadlockTests
{
    private static IEnumerable<TestCaseData> Runs() => HangSample.AllRuns.Select(r => new TestCaseData(r).SetArgDisplayNames($"run {r}"));

    private static int Managed(JsonElement e) => e.GetProperty("managedThreadId").GetInt32();

    private static string Evidence(JsonElement finding) => string.Join("\n", finding.GetProperty("evidence").EnumerateArray().Select(e => e.GetString()));

    private static List<JsonElement> ContextFindings(Diagext.Result result) =>
        result.Findings.Where(f => f.GetProperty("kind").GetString() == "context-deadlock").ToList();

    [TestCaseSource(nameof(Runs))]
    public void A_thread_blocked_on_a_task_that_must_resume_on_its_own_context_is_a_context_deadlock(int run)
    {
        HangSample.Dump dump = HangSample.Of("synccontext", run);
        Diagext.Result result = Diagext.Run("hang", dump.Path, "--json");
        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stdout + result.Stderr);
        Assert.That(result.Findings.Select(f => f.GetProperty("kind").GetString()), Is.EqualTo(new[] { "context-deadlock", "context-deadlock" }), result.Stdout);
        var byThread = ContextFindings(result).ToDictionary(f => Managed(f.GetProperty("threads").EnumerateArray().Single()));
        Assert.That(byThread.Keys, Is.EquivalentTo(new[] { dump.Thread("ui").ManagedId, dump.Thread("ui2").ManagedId }), dump.Output);

        JsonElement ui = byThread[dump.Thread("ui").ManagedId];
        JsonElement ui2 = byThread[dump.Thread("ui2").ManagedId];
        var contexts = new List<string>();
        foreach ((JsonElement f, string method) in new[] { (ui, "ContextDeadlock.LoadAsync"), (ui2, "ContextDeadlock.SlowLoadAsync") })
        {
            Assert.That(f.GetProperty("severity").GetString(), Is.EqualTo("hazard"));
            JsonElement thread = f.GetProperty("threads").EnumerateArray().Single();
            uint os = thread.GetProperty("osThreadId").GetUInt32();
            Assert.That(thread.GetProperty("frame").GetString(), Does.StartWith("Task"));
            string summary = f.GetProperty("summary").GetString()!;
            Assert.That(summary, Does.Match($@"^{method.Replace(".", @"\.")} resumes after await 0 on ContextDeadlock\+OneThreadContext 0x[0-9a-f]+, which only thread 0x{os:x} \(managed {Managed(thread)}\) runs, and that thread is blocked in \.Result"));
            contexts.Add(System.Text.RegularExpressions.Regex.Match(summary, "OneThreadContext (0x[0-9a-f]+)").Groups[1].Value);
            string evidence = Evidence(f);
            Assert.That(evidence, Does.Contain($"is the current SynchronizationContext of thread 0x{os:x} and of no other thread; that thread runs its loop (ContextDeadlock+OneThreadContext.Pump) below the blocking call"));
            Assert.That(f.GetProperty("advice").GetString(), Does.StartWith("Do not block on async code"));
        }
        Assert.That(contexts.Distinct().Count(), Is.EqualTo(2), "each thread blocks on its own context");
        Assert.That(Evidence(ui), Does.Contain("(Task+DelayPromise) 0x").And.Contain("has completed and its continuation was posted to ContextDeadlock+OneThreadContext")
            .And.Contain("queued: ContextDeadlock+OneThreadContext -> BlockingCollection<..> -> ConcurrentQueue<..>"));
        Assert.That(Evidence(ui2), Does.Contain("its continuation waits on Task+DelayPromise 0x").And.Contain("(SynchronizationContextAwaitTaskContinuation)"));
        Assert.That(Evidence(ui2), Does.Not.Contain("posted to"), "the 10-minute delay has not fired");
    }

    [Test]
    public void Text_names_the_blocking_call_the_method_and_the_context()
    {
        HangSample.Dump dump = HangSample.Of("synccontext", 1);
        Diagext.Result result = Diagext.Run("hang", dump.Path);
        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stderr);
        Assert.That(result.Stdout, Does.Match(@"\[hang\] SynchronizationContext deadlock: thread 0x[0-9a-f]+ blocks in \.Result in ContextDeadlock\+<>c\.<Run>b__\d+_0 on ContextDeadlock\.LoadAsync, which must resume on that thread's ContextDeadlock\+OneThreadContext"));
        Assert.That(result.Stdout, Does.Contain($"(managed {dump.Thread("ui").ManagedId}) runs (its continuation is already posted there)"));
    }

    [TestCaseSource(nameof(Runs))]
    public void ConfigureAwait_false_under_a_context_gives_no_context_deadlock(int run)
    {
        HangSample.Dump dump = HangSample.Of("synccontexthealthy", run);
        Assert.That(dump.Threads.Select(t => t.Name), Is.EquivalentTo(new[] { "worker", "pumper" }), dump.Output);
        Diagext.Result result = Diagext.Run("hang", dump.Path, "--json");
        Assert.That(result.ExitCode, Is.Zero, result.Stdout + result.Stderr);
        Assert.That(result.Findings, Is.Empty, "a blocked thread whose continuation runs off the context, and an idle pump, are no hang");
    }

    [TestCaseSource(nameof(Runs))]
    public void Nito_AsyncEx_AsyncContext_blocked_on_its_own_posted_continuation_is_what_the_ground_truth_says(int run)
    {
        DumpMaker.SampleDump made = DumpMaker.DumpOfSampleWithOutput("AsyncExDeadlock", null, $"hang-asyncex-{run}.core");
        var dump = new HangSample.Dump(made.Path, made.Output);
        Diagext.Result result = Diagext.Run("hang", dump.Path, "--json");
        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stdout + result.Stderr);
        JsonElement finding = result.Findings.Single();
        Assert.That(finding.GetProperty("kind").GetString(), Is.EqualTo("context-deadlock"));
        Assert.That(finding.GetProperty("severity").GetString(), Is.EqualTo("hazard"));
        JsonElement caller = finding.GetProperty("threads").EnumerateArray().Single();
        Assert.That(Managed(caller), Is.EqualTo(dump.Thread("caller").ManagedId), dump.Output);
        uint os = caller.GetProperty("osThreadId").GetUInt32();
        Assert.That(caller.GetProperty("frame").GetString(), Is.EqualTo("Task.Wait"));
        Assert.That(caller.GetProperty("callerFrame").GetString(), Does.StartWith("Program+<>c."));
        Assert.That(finding.GetProperty("summary").GetString(), Does.Match(
            $@"^Reports\.LoadReportAsync resumes after await 0 on AsyncContext\+AsyncContextSynchronizationContext 0x[0-9a-f]+, which only thread 0x{os:x} \(managed {Managed(caller)}\) runs, and that thread is blocked in \.Wait\(\)"));
        string evidence = Evidence(finding);
        Assert.That(evidence, Does.Contain("(Task+DelayPromise) 0x").And.Contain("has completed and its continuation was posted to AsyncContext+AsyncContextSynchronizationContext"));
        Assert.That(evidence, Does.Contain("queued: AsyncContext+AsyncContextSynchronizationContext -> AsyncContext -> AsyncContext+TaskQueue -> BlockingCollection<..>"));
        Assert.That(evidence, Does.Contain($"is the current SynchronizationContext of thread 0x{os:x} and of no other thread; that thread runs its loop (AsyncContext.<Execute>"));
        Assert.That(evidence, Does.Contain("is Nito.AsyncEx's AsyncContext"));
    }

    /// <summary>
    /// The synccontext core with ui's Thread._synchronizationContext cleared: no thread runs ui's context any more, so
    /// nothing proves the cycle: ui gets no context-deadlock (its wait is left as it was), ui2 still does.
    /// </summary>
    [Test]
    public void A_context_no_thread_runs_proves_nothing()
    {
        HangSample.Dump dump = HangSample.Of("synccontext", 1);
        ulong field = 0;
        using (Target target = TargetOpener.OpenDump(dump.Path))
            foreach (ClrObject o in target.Runtime!.Heap.EnumerateObjects())
                if (o.Type?.Name == "System.Threading.Thread" && o.ReadField<int>("_managedThreadId") == dump.Thread("ui").ManagedId)
                    field = o.Type.GetFieldByName("_synchronizationContext")!.GetAddress(o.Address);
        Assert.That(field, Is.Not.Zero, "ui's Thread object is in the heap");
        using var patch = new CorePatch(dump.Path, Path.Combine(Repo.WorkDirectory, "hostile", "hang-synccontext-nothread.core"));
        patch.WriteUInt64(field, 0);
        Diagext.Result result = Diagext.Run("hang", patch.Path, "--json", "--verbose");
        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stdout + result.Stderr);
        Assert.That(result.Stderr, Does.Not.Contain("   at "), "no stack trace");
        Assert.That(ContextFindings(result).Select(f => Managed(f.GetProperty("threads").EnumerateArray().Single())), Is.EqualTo(new[] { dump.Thread("ui2").ManagedId }));
    }
}
