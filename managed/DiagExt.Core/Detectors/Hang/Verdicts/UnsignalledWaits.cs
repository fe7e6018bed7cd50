using DiagExt.Core.Reports;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// Threads blocked on something without an owner that only a call would end: a promise task (its TaskCompletionSource's
/// SetResult) or a ManualResetEventSlim not set (Set). Reported, as a blocked-chain warning, only when no other thread's
/// live stack references the object or its source (<see cref="SignalReferences"/>); worded by what the heap shows: a
/// static or handle reaches it (code may still complete it, nothing running now does: a note, since an idle consumer
/// waiting for work looks exactly like this), or nothing but the waiters' stacks does (a warning: no code can reach it
/// to end the wait). Never "forever": a dump cannot see every caller.
/// </summary>
internal sealed class UnsignalledWaits : IHangVerdict
{
    public bool InWatch => false;

    public IEnumerable<HangFinding> Find(WaitGraph graph, HangScene scene) =>
        Find(scene.Target, graph, scene.Threads, scene.Waitables, scene.Naming, scene.SetAside, scene.Cancellation);

    public static IEnumerable<HangFinding> Find(Target target, WaitGraph graph, ThreadIndex threads, Waitables waitables,
        Func<IReadOnlySet<ulong>, LockNames> names, Action<string> setAside, CancellationToken cancellation)
    {
        var groups = graph.ObjectWaits
            .Where(e => e.Value.End is WaitEnd.Promise or WaitEnd.ResetEvent && e.Value.EndObject != 0)
            .GroupBy(e => e.Value.EndObject)
            .OrderBy(g => g.Min(e => e.Key));
        foreach (var group in groups)
        {
            cancellation.ThrowIfCancellationRequested();
            var waiting = group.OrderBy(e => e.Key).ToList();
            ObjectWait first = waiting[0].Value;
            bool promise = first.End == WaitEnd.Promise;
            if (!promise && target.Runtime!.Heap.GetObject(first.EndObject) is var mres && ResetEventState.Read(mres) is { IsSet: true })
                continue; // set: its waiters are about to wake
            var signals = new HashSet<ulong> { first.EndObject };
            if (promise)
                signals.UnionWith(waitables.SourcesOf(first.EndObject));
            var waiterIds = waiting.Select(e => e.Key).ToHashSet();
            if (SignalReferences.Holder(target, target.Threads, waiterIds, signals, cancellation) is { } holder)
            {
                setAside($"{waiting.Count} thread{(waiting.Count == 1 ? "" : "s")} wait on 0x{first.EndObject:x}; thread 0x{holder.Thread.OsThreadId:x} may complete it ({holder.How})");
                continue;
            }
            yield return Build(target, waiting, signals, promise, names(signals), threads, graph);
        }
    }

    private static HangFinding Build(Target target, List<KeyValuePair<uint, ObjectWait>> waiting, HashSet<ulong> signals, bool promise, LockNames names, ThreadIndex threads, WaitGraph graph)
    {
        ObjectWait first = waiting[0].Value;
        var liveness = signals.Select(s => target.Liveness?.Of(s) ?? Liveness.Unknown).ToList();
        string? path = signals.Select(names.Path).FirstOrDefault(p => p is not null);
        string what = promise ? "a promise task (TaskCompletionSource)" : "a ManualResetEventSlim";
        string verb = promise ? "complete" : "set";
        string reach = liveness.Contains(Liveness.Live)
            ? $"it is reachable from {(path is null ? "the heap (a static or a handle)" : $"static {path}")}, so code may still {verb} it, but no other thread's live stack references it (directly or through one object): nothing running now will"
            : liveness.Contains(Liveness.Unknown)
                ? "no other thread's live stack references it (directly or through one object); whether the heap does could not be settled"
                : $"nothing reaches it but stacks (no static, no handle), and no other thread's live stack references it directly or through one object: only the waiters hold it, and they cannot {verb} it";
        var evidence = new List<Markup>();
        var refs = new List<ThreadRef>();
        foreach ((uint os, ObjectWait wait) in waiting)
        {
            TargetThread thread = threads.ByOsId(os)!;
            ThreadWait? at = graph.WaitOf(os);
            evidence.Add(ObjectWaitLines.Append(Markup.Line().Text("thread ").Thread(os).Text(" "), wait)
                .Text(at is null ? "" : $" (at {at.Where})"));
            refs.Add(ThreadRefs.For(thread, $"blocked: {ObjectWaitLines.Role(wait)}", at));
        }
        MarkupBuilder signal = Markup.Line().Text($"{what} ").Object(first.EndObject);
        foreach (ulong source in signals.Where(s => s != first.EndObject).Order())
            signal.Text(", its TaskCompletionSource ").Object(source);
        evidence.Add(signal.Text($": {reach}"));
        string who = waiting.Count == 1 ? $"thread {ThreadRefs.Name(threads.ByOsId(waiting[0].Key)!)} is" : $"{waiting.Count} threads are";
        return new HangFinding
        {
            Kind = HangDetector.BlockedChain,
            Title = $"{(waiting.Count == 1 ? "1 thread" : $"{waiting.Count} threads")} blocked on {what} no other thread references",
            Summary = $"{char.ToUpperInvariant(who[0])}{who[1..]} blocked on {what} 0x{first.EndObject:x}, which only a call to {(promise ? "SetResult" : "Set")} ends; {reach}.",
            Threads = refs,
            Evidence = evidence,
            Advice = HangAdvice.Unsignalled,
            Level = liveness.Contains(Liveness.Live) ? FindingSeverity.Information : null,
        };
    }
}
