using System.Text.Json;
using DiagExt.Core.Targets;
using DiagExt.Tests.Hostile;
using DiagExt.Tests.Infrastructure;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Tests.Hang;

/// <summary>
/// hang on threads blocked on tasks, threads and events (issue 27, source 5), two runs of each samples/Hangs mode. The
/// ground truth, written before diagext was first run on these modes:
/// - join: the monitor2 deadlock (transfer, audit), and "joiner" in Thread.Join on transfer listed apart as a bystander
///   whose wait is the Join ("thread ... must end first"); no other thread.
/// - taskwait: a deadlock of "refresher" (holds CacheLock, waits in Task.Wait for RefreshAsync's task) and the pool
///   thread that runs RefreshAsync (waits for CacheLock held by refresher): the task wait is an edge to the thread
///   running the task.
/// - tcs: a blocked-chain warning naming only "caller", its wait followed through FetchAsync to a promise task that the
///   static Hangs.NeverCompleted.Reply reaches and no other thread's stack references. Changed in review, after the
///   first runs: a note (information, exit code 0), not a warning, since code reachable from a static may still
///   complete it and an idle consumer waiting for work looks the same; the finding and its wording are unchanged.
/// - mres: a blocked-chain warning naming only "sleeper", on a ManualResetEventSlim nothing but stacks reaches.
/// - taskhealthy: no finding but, at most, a blocked chain's note (a Task.Delay is a timer, a promise a running thread holds will be completed): checked with
///   the busy healthy mode in <see cref="HangDeadlockTests.A_busy_contended_healthy_process_gives_no_warning"/>.
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class HangTaskWaitTests
{
    private static IEnumerable<TestCaseData> Cases(string mode) => HangSample.AllRuns.Select(r => new TestCaseData(mode, r).SetArgDisplayNames(mode, $"run {r}"));

    private static IEnumerable<TestCaseData> JoinRuns() => Cases("join");

    private static IEnumerable<TestCaseData> TaskWaitRuns() => Cases("taskwait");

    private static IEnumerable<TestCaseData> PromiseRuns() => Cases("tcs");

    private static IEnumerable<TestCaseData> EventRuns() => Cases("mres");

    private static JsonElement Single(HangSample.Dump dump, out Diagext.Result result, int exitCode = 1)
    {
        result = Diagext.Run("hang", dump.Path, "--json");
        Assert.That(result.ExitCode, Is.EqualTo(exitCode), result.Stdout + result.Stderr);
        return result.Findings.Single();
    }

    private static int Managed(JsonElement e) => e.GetProperty("managedThreadId").GetInt32();

    [TestCaseSource(nameof(JoinRuns))]
    public void A_join_onto_a_deadlocked_thread_is_a_bystander_of_the_cycle(string mode, int run)
    {
        HangSample.Dump dump = HangSample.Of(mode, run);
        JsonElement finding = Single(dump, out _);
        Assert.That(finding.GetProperty("kind").GetString(), Is.EqualTo("deadlock"));
        Assert.That(finding.GetProperty("cycle").EnumerateArray().Select(Managed),
            Is.EquivalentTo(new[] { dump.Thread("transfer").ManagedId, dump.Thread("audit").ManagedId }), dump.Output);
        JsonElement[] threads = finding.GetProperty("threads").EnumerateArray().ToArray();
        JsonElement joiner = threads.Single(t => t.GetProperty("role").GetString()!.StartsWith("bystander"));
        Assert.That(Managed(joiner), Is.EqualTo(dump.Thread("joiner").ManagedId));
        Assert.That(joiner.GetProperty("role").GetString(), Does.StartWith("bystander: waits for Thread 0x").And.Contain($"(managed {dump.Thread("transfer").ManagedId}) must end first"));
        Assert.That(joiner.GetProperty("frame").GetString(), Is.EqualTo("Thread.Join"));
        Assert.That(threads.Select(Managed), Is.EquivalentTo(dump.Threads.Select(t => t.ManagedId)), "no other thread is named");
    }

    [TestCaseSource(nameof(TaskWaitRuns))]
    public void A_task_wait_under_a_lock_the_task_needs_is_a_deadlock_with_the_thread_running_the_task(string mode, int run)
    {
        HangSample.Dump dump = HangSample.Of(mode, run);
        JsonElement finding = Single(dump, out _);
        Assert.That(finding.GetProperty("kind").GetString(), Is.EqualTo("deadlock"));
        Assert.That(finding.GetProperty("severity").GetString(), Is.EqualTo("hazard"));
        JsonElement[] cycle = finding.GetProperty("cycle").EnumerateArray().ToArray();
        Assert.That(cycle.Select(Managed), Is.EquivalentTo(new[] { dump.Thread("refresher").ManagedId, dump.Thread("pool").ManagedId }), dump.Output);
        JsonElement cacheLock = finding.GetProperty("locks").EnumerateArray().Single();
        Assert.That(cacheLock.GetProperty("path").GetString(), Is.EqualTo("Hangs.TaskWaits.CacheLock"));
        string lockAddress = cacheLock.GetProperty("address").GetString()!;
        JsonElement refresher = cycle.Single(s => Managed(s) == dump.Thread("refresher").ManagedId);
        JsonElement pool = cycle.Single(s => Managed(s) == dump.Thread("pool").ManagedId);
        Assert.That(refresher.GetProperty("holds").GetString(), Is.EqualTo(lockAddress));
        Assert.That(refresher.GetProperty("waitsFor").GetString(), Is.Not.EqualTo(lockAddress), "the refresher waits for the task, not a lock");
        Assert.That(refresher.GetProperty("frame").GetString(), Does.StartWith("Task"));
        Assert.That(pool.GetProperty("waitsFor").GetString(), Is.EqualTo(lockAddress));
        Assert.That(pool.GetProperty("frame").GetString(), Is.EqualTo("Monitor.Enter"));
        Assert.That(cacheLock.GetProperty("heldBy").EnumerateArray().Select(t => t.GetUInt32()), Is.EqualTo(new[] { refresher.GetProperty("osThreadId").GetUInt32() }));
        string role = finding.GetProperty("threads").EnumerateArray().Single(t => Managed(t) == dump.Thread("refresher").ManagedId).GetProperty("role").GetString()!;
        Assert.That(role, Does.Contain("TaskWaits.RefreshAsync").And.Contain($"runs on thread 0x{pool.GetProperty("osThreadId").GetUInt32():x}"));
        Assert.That(role, Does.Contain("(in TaskWaits+<RefreshAsync>d__5.MoveNext)"), "the frame of the user's method, not the box's plumbing");
        Assert.That(finding.GetProperty("advice").GetString(), Does.StartWith("Do not block on a task"));
    }

    [TestCaseSource(nameof(TaskWaitRuns))]
    public void Text_prints_the_task_step_of_the_cycle(string mode, int run)
    {
        HangSample.Dump dump = HangSample.Of(mode, run);
        Diagext.Result result = Diagext.Run("hang", dump.Path);
        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stderr);
        Assert.That(result.Stdout, Does.Match($@"thread 0x[0-9a-f]+ \(managed {dump.Thread("refresher").ManagedId}\) holds CacheLock 0x[0-9a-f]+, waits for task of async TaskWaits\.RefreshAsync 0x[0-9a-f]+, runs on thread 0x[0-9a-f]+ \(managed {dump.Thread("pool").ManagedId}\)"));
        Assert.That(result.Stdout, Does.Match($@"thread 0x[0-9a-f]+ \(managed {dump.Thread("pool").ManagedId}\) waits for CacheLock 0x[0-9a-f]+ held by thread 0x"));
    }

    [TestCaseSource(nameof(PromiseRuns))]
    public void A_thread_blocked_on_a_promise_a_static_still_reaches_is_a_note(string mode, int run)
    {
        HangSample.Dump dump = HangSample.Of(mode, run);
        JsonElement finding = Single(dump, out _, exitCode: 0);
        Assert.That(finding.GetProperty("kind").GetString(), Is.EqualTo("blocked-chain"));
        Assert.That(finding.GetProperty("severity").GetString(), Is.EqualTo("information"), "code reachable from a static may still complete it: an idle consumer looks the same");
        JsonElement caller = finding.GetProperty("threads").EnumerateArray().Single();
        Assert.That(Managed(caller), Is.EqualTo(dump.Thread("caller").ManagedId));
        Assert.That(caller.GetProperty("role").GetString(), Does.Match(@"waits for task of async NeverCompleted\.FetchAsync 0x[0-9a-f]+ \(suspended at await 0\), Task<String> 0x[0-9a-f]+ is a promise"));
        string evidence = string.Join("\n", finding.GetProperty("evidence").EnumerateArray().Select(e => e.GetString()));
        Assert.That(evidence, Does.Contain("reachable from static Hangs.NeverCompleted.Reply").And.Contain("no other thread's live stack references it"));
        Assert.That(evidence, Does.Contain("its TaskCompletionSource 0x"), "the source found in the heap pass");
    }

    [TestCaseSource(nameof(EventRuns))]
    public void A_thread_blocked_on_an_event_only_its_stack_holds_is_a_warning(string mode, int run)
    {
        HangSample.Dump dump = HangSample.Of(mode, run);
        JsonElement finding = Single(dump, out _);
        Assert.That(finding.GetProperty("kind").GetString(), Is.EqualTo("blocked-chain"));
        Assert.That(finding.GetProperty("severity").GetString(), Is.EqualTo("warning"), "nothing but stacks reaches it: no code can set it");
        JsonElement sleeper = finding.GetProperty("threads").EnumerateArray().Single();
        Assert.That(Managed(sleeper), Is.EqualTo(dump.Thread("sleeper").ManagedId));
        Assert.That(sleeper.GetProperty("frame").GetString(), Is.EqualTo("ManualResetEventSlim.Wait"));
        Assert.That(sleeper.GetProperty("role").GetString(), Does.Contain("not set, 1 waiter"));
        Assert.That(finding.GetProperty("summary").GetString(), Does.Contain("nothing reaches it but stacks"));
    }

    /// <summary>The tcs core with FetchAsync's awaiter pointing back at FetchAsync's own task: the chain must end, not loop.</summary>
    [Test]
    public void A_task_that_awaits_itself_gives_an_answer_not_a_hang()
    {
        HangSample.Dump dump = HangSample.Of("tcs", 1);
        ulong box = 0, awaiterTask = 0;
        using (Target target = TargetOpener.OpenDump(dump.Path))
            foreach (ClrObject o in target.Runtime!.Heap.EnumerateObjects())
                if (o.Type?.GetFieldByName("StateMachine") is { } field && field.Type?.Name?.Contains("<FetchAsync>") == true)
                {
                    box = o.Address;
                    ClrValueType machine = o.ReadValueTypeField("StateMachine");
                    ClrInstanceField awaiter = machine.Type!.Fields.Single(f => f.Name!.StartsWith("<>u__"));
                    awaiterTask = awaiter.Type!.GetFieldByName("m_task")!.GetAddress(awaiter.GetAddress(machine.Address, interior: true), interior: true);
                }
        Assert.That(box, Is.Not.Zero, "FetchAsync's task is in the heap");
        using var patch = new CorePatch(dump.Path, Path.Combine(Repo.WorkDirectory, "hostile", "hang-tcs-self.core"));
        patch.WriteUInt64(awaiterTask, box);
        Diagext.Result result = Diagext.Run("hang", patch.Path, "--json", "--verbose");
        Assert.That(result.ExitCode, Is.Zero.Or.EqualTo(1), result.Stderr);
        Assert.That(result.Stderr, Does.Not.Contain("   at "), "no stack trace");
        Assert.That(result.Findings.Where(f => f.GetProperty("kind").GetString() == "blocked-chain"), Is.Empty, "a chain cut by a loop proves nothing");
    }
}
