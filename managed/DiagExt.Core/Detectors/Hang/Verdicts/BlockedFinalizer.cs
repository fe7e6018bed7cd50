using DiagExt.Core.Reports;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// The finalizer thread blocked (or kept busy) while objects wait for it: nothing is finalized, memory climbs. Its wait
/// comes from the graph like any thread's, followed through the blockers as far as the graph goes. A hazard when
/// nothing running will release it: the chain loops (a deadlock), ends at a thread that is itself blocked on something
/// without an owner, at a lock whose owner is no thread of the process, or at an event or promise no other thread's
/// stack references. A note when it ends at a thread that runs or sleeps (a second dump settles it), a warning when the
/// finalizer itself waits on something hang cannot follow (a WaitHandle, a semaphore). Idle (no managed frame) is
/// nothing; running or sleeping in a Finalize with <see cref="BusyQueue"/> or more objects queued is a note.
/// </summary>
internal sealed class BlockedFinalizer : IHangVerdict
{
    /// <summary>Queued objects from which a busy finalizer is worth a note: a GC can queue hundreds that drain in a moment.</summary>
    public const int BusyQueue = 1000;

    public bool InWatch => false;

    public IEnumerable<HangFinding> Find(WaitGraph graph, HangScene scene)
    {
        if (FinalizerThread.Of(scene.Target) is not { IsIdle: false } finalizer)
            yield break;
        uint os = finalizer.Thread.OsThreadId;
        ThreadWait? wait = graph.WaitOf(os);
        if (wait is null || wait.Site.Kind == WaitKind.Sleep)
        {
            if (finalizer.Finalizing is null)
                yield break; // managed frames but no Finalize: not the finalization loop
            FinalizerQueue busyQueue = FinalizerQueue.Of(scene.Target, scene.Cancellation);
            Said(busyQueue, scene);
            if (busyQueue.Ready >= BusyQueue)
                yield return Busy(finalizer, wait, busyQueue);
            else
                scene.SetAside($"the finalizer thread 0x{os:x} runs {TypeNames.Short(finalizer.Finalizing)}.Finalize with {busyQueue.Ready:N0} objects queued (a note from {BusyQueue:N0})");
            yield break;
        }
        FinalizerQueue queue = FinalizerQueue.Of(scene.Target, scene.Cancellation);
        Said(queue, scene);
        yield return Blocked(finalizer, wait, graph, scene, queue);
    }

    private static void Said(FinalizerQueue queue, HangScene scene)
    {
        foreach (string problem in queue.Problems)
            scene.Note(problem);
    }

    /// <summary>How the chain behind the finalizer ends, and how sure that makes the finding.</summary>
    private sealed record Ending(string Text, FindingSeverity Severity, bool TimeSettles);

    private static HangFinding Blocked(FinalizerThread finalizer, ThreadWait wait, WaitGraph graph, HangScene scene, FinalizerQueue queue)
    {
        uint os = finalizer.Thread.OsThreadId;
        var chain = Chain(graph, os, scene.Target.Threads.Count, out bool loops);
        var lockAddresses = chain.Select(graph.LockWaitedBy).Where(l => l is not null).Select(l => l!.Address).ToHashSet();
        LockNames names = scene.Naming(lockAddresses);
        var evidence = new List<Markup>();
        var refs = new List<ThreadRef>();
        var locks = new List<LockState>();
        foreach (uint t in chain)
        {
            TargetThread thread = scene.Threads.ByOsId(t)!;
            bool first = t == os;
            MarkupBuilder line = Markup.Line().Text(first ? "the finalizer thread " : "thread ").Thread(t).Text(thread.ManagedThreadId is int m ? $" (managed {m})" : "");
            if (first && finalizer.Finalizing is { } type)
                line.Text($", in {TypeNames.Short(type)}.Finalize,");
            ThreadWait? at = graph.WaitOf(t);
            string role;
            if (WaitLines.Append(line.Text(" "), graph, names, t, heldBy: true) is { } worded)
            {
                role = worded.Role;
                if (worded.Lock is { } l && !locks.Contains(l))
                    locks.Add(l);
            }
            else
            {
                role = Doing(at);
                line.Text(role);
            }
            if (at is not null)
                line.Text($" (at {at.Where})");
            evidence.Add(line);
            refs.Add(ThreadRefs.For(thread, first ? $"finalizer: {role}" : $"blocks the finalizer: {role}", at));
        }
        Ending ending = End(chain, loops, graph, scene);
        uint end = chain[^1];
        MarkupBuilder endLine = Markup.Line();
        if (loops || end == os)
            endLine.Text("the finalizer thread ");
        else
            endLine.Text("the chain ends at thread ").Thread(end).Text(", which ");
        evidence.Add(endLine.Text(ending.Text));
        evidence.Add(Markup.Line().Text(queue.Describe()));
        string waitText = WaitText(graph, names, os, wait);
        string holder = chain.Count > 1 ? $" held by thread {Named(scene, chain[1])}" : "";
        string then = loops || end == os ? $"; it {ending.Text}"
            : chain.Count == 2 ? $", which {ending.Text}"
            : $"; the chain behind it ends at thread {Named(scene, end)}, which {ending.Text}";
        return new HangFinding
        {
            Kind = HangDetector.BlockedFinalizer,
            Title = $"The finalizer thread 0x{os:x} is blocked: {waitText}{holder}; {Objects(queue.Ready)} wait for finalization",
            Summary = $"The finalizer thread {ThreadRefs.Name(finalizer.Thread)} is blocked{(finalizer.Finalizing is { } f ? $" in {TypeNames.Short(f)}.Finalize" : "")}: it {waitText}{holder}{then}. " +
                      $"No object is finalized while it waits: {queue.Describe()}, and every finalizable object that dies joins them, so memory grows until the process fails." +
                      (ending.TimeSettles ? $" One dump cannot tell whether it will move: {BlockedChains.SettleWith}." : ""),
            Level = ending.Severity == FindingSeverity.Hazard ? null : ending.Severity,
            TimeSettles = ending.TimeSettles,
            Threads = refs,
            Evidence = evidence,
            Advice = HangAdvice.BlockedFinalizer,
            Locks = locks.Select(names.Describe).ToList(),
            Finalizer = Describe(finalizer, "blocked", queue),
        };
    }

    /// <summary>
    /// The finalizer and the threads it waits behind, one blocker per step (the first the graph names), each once and at
    /// most one per thread of the target: a loop is a deadlock.
    /// </summary>
    private static List<uint> Chain(WaitGraph graph, uint start, int bound, out bool loops)
    {
        var chain = new List<uint> { start };
        loops = false;
        for (uint at = start; chain.Count <= bound;)
        {
            IReadOnlyList<uint> blockers = graph.Blockers(at);
            if (blockers.Count == 0)
                break;
            at = blockers[0];
            if (chain.Contains(at))
            {
                loops = true;
                break;
            }
            chain.Add(at);
        }
        return chain;
    }

    /// <summary>What the end of the chain does, as a predicate ("is itself blocked ..."), and how sure that makes the finding.</summary>
    private static Ending End(List<uint> chain, bool loops, WaitGraph graph, HangScene scene)
    {
        if (loops)
            return new("waits behind threads that wait for each other (a deadlock), which nothing will release", FindingSeverity.Hazard, false);
        uint end = chain[^1];
        if (graph.LockWaitedBy(end) is { } l && !graph.Blockers(end).Any())
            return l.UnknownOwners.Count > 0
                ? new($"waits for a lock held by {string.Join(", ", l.UnknownOwners)}, no thread of the process: nothing will release it", FindingSeverity.Hazard, false)
                : new("waits for a lock that has no holder now: it may be about to take it", FindingSeverity.Information, true);
        ThreadWait? wait = graph.WaitOf(end);
        if (wait is null)
            return end == chain[0]
                ? new("waits in a way hang cannot tell", FindingSeverity.Warning, true)
                : new("is not waiting (it runs, or waits in native code), so it may yet release it", FindingSeverity.Information, true);
        if (wait.Site.Kind == WaitKind.Sleep)
            return new($"sleeps (in {wait.WaitFrame.ShortName}), and may wake and release it", FindingSeverity.Information, true);
        if (graph.ObjectWaitOf(end) is { } objectWait)
        {
            if (objectWait.End == WaitEnd.Timer)
                return new("waits for a timer (Task.Delay), which will fire", FindingSeverity.Information, true);
            if (objectWait.End is WaitEnd.Promise or WaitEnd.ResetEvent && objectWait.EndObject != 0)
            {
                var signals = new HashSet<ulong> { objectWait.EndObject };
                if (objectWait.End == WaitEnd.Promise)
                    signals.UnionWith(scene.Waitables.SourcesOf(objectWait.EndObject));
                var waiters = graph.ObjectWaits.Where(e => e.Value.EndObject == objectWait.EndObject).Select(e => e.Key).ToHashSet();
                string what = objectWait.End == WaitEnd.Promise ? "a promise task" : "a ManualResetEventSlim";
                if (SignalReferences.Holder(scene.Target, scene.Target.Threads, waiters, signals, scene.Cancellation) is { } signaller)
                    return new($"is itself blocked on {what} 0x{objectWait.EndObject:x}, which thread 0x{signaller.Thread.OsThreadId:x} may end ({signaller.How})", FindingSeverity.Warning, true);
                // Reachable from a static or a handle, code may still end it (as UnsignalledWaits words it); from nothing, no code can.
                if (signals.Any(o => (scene.Target.Liveness?.Of(o) ?? Liveness.Unknown) != Liveness.Dead))
                    return new($"is itself blocked on {what} 0x{objectWait.EndObject:x} that no other thread's live stack references (directly or through one object); the heap may still reach it (a static or a handle), so code may yet end that wait, but nothing running now will", FindingSeverity.Warning, false);
                return new($"is itself blocked on {what} 0x{objectWait.EndObject:x} that nothing references but the waiters' stacks: nothing will release it", FindingSeverity.Hazard, false);
            }
        }
        if (end == chain[0])
            return new($"waits in {wait.WaitFrame.ShortName}, which has no owner hang can follow (an event, a semaphore or a handle): one dump cannot say whether anything will signal it", FindingSeverity.Warning, true);
        return new($"is itself blocked in {wait.WaitFrame.ShortName}, which has no owner to follow: nothing running will release it", FindingSeverity.Hazard, false);
    }

    private static HangFinding Busy(FinalizerThread finalizer, ThreadWait? wait, FinalizerQueue queue)
    {
        TargetThread thread = finalizer.Thread;
        string type = TypeNames.Short(finalizer.Finalizing!);
        string doing = wait is null ? "runs" : $"sleeps (in {wait.WaitFrame.ShortName})";
        return new HangFinding
        {
            Kind = HangDetector.BlockedFinalizer,
            Title = $"The finalizer thread 0x{thread.OsThreadId:x} is busy in {type}.Finalize; {Objects(queue.Ready)} wait for finalization",
            Summary = $"The finalizer thread {ThreadRefs.Name(thread)} {doing} in {type}.Finalize, not blocked, and {queue.Describe()}. " +
                      "A slow finalizer falls behind the objects that die: memory grows while the queue does. " +
                      $"One dump cannot tell a queue that drains from one that grows: {BlockedChains.SettleWith}.",
            Level = FindingSeverity.Information,
            TimeSettles = true,
            Threads = [ThreadRefs.For(thread, $"finalizer: {doing} in {type}.Finalize", wait)],
            Evidence =
            [
                Markup.Line().Text("the finalizer thread ").Thread(thread.OsThreadId).Text($" {doing} in {type}.Finalize"),
                Markup.Line().Text(queue.Describe()),
            ],
            Advice = HangAdvice.BlockedFinalizer,
            Finalizer = Describe(finalizer, "busy", queue),
        };
    }

    private static HangFinalizer Describe(FinalizerThread finalizer, string state, FinalizerQueue queue) => new()
    {
        OsThreadId = finalizer.Thread.OsThreadId,
        State = state,
        Finalizing = finalizer.Finalizing,
        ReadyForFinalization = queue.Ready,
        TypesRead = queue.Read,
        TopTypes = queue.Top.Select(t => new HangTypeCount(t.Type, t.Count)).ToList(),
    };

    /// <summary>"waits for CacheSync 0x.." (the lock or object, without its holders), or the frame it waits in.</summary>
    private static string WaitText(WaitGraph graph, LockNames names, uint os, ThreadWait wait) =>
        graph.LockWaitedBy(os) is { } l ? $"waits for {l.Kind} {names.Name(l)} {(Address)l.Address}"
        : graph.ObjectWaitOf(os) is { } o ? ObjectWaitLines.Role(o)
        : $"waits in {wait.WaitFrame.ShortName}";

    private static string Doing(ThreadWait? wait) =>
        wait is null ? "is not waiting (it runs, or waits in native code)" : $"waits in {wait.WaitFrame.ShortName}, which has no owner to follow";

    private static string Named(HangScene scene, uint os) => scene.Threads.ByOsId(os) is { } t ? ThreadRefs.Name(t) : $"0x{os:x}";

    private static string Objects(long count) => count == 1 ? "1 object" : $"{count:N0} objects";
}
