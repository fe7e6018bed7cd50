using DiagExt.Core.Reports;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// Chains of threads waiting one behind the other for a lock (or a task another thread runs, or a Join), ending in a thread that is not waiting for a lock (it
/// runs, sleeps, or waits on something without an owner), reported from <see cref="HangDetector.MinChainWaiters"/>
/// waiting threads on. One dump cannot tell such a chain from busy contention (a holder that keeps a lock for a few
/// milliseconds looks the same), so it is a note that says what would settle it; time does: a dump series
/// (<see cref="Reports.Series.SeriesComparer"/>) or a live process (<see cref="LiveProgress"/>) makes it a hazard
/// when nothing moved.
/// </summary>
internal static class BlockedChains
{
    /// <summary>What settles a chain seen once, in the words a note ends with.</summary>
    public const string SettleWith = "a second dump in 5-10 s, analysed together with this one, or a live look at the process with hang, settles it";

    public static IEnumerable<HangFinding> Find(WaitGraph graph, ThreadIndex threads, HashSet<uint> inKnot, HashSet<uint> bystanders, LockNames names)
    {
        // Each waiting thread outside a knot ends at the holders its chain reaches that are not themselves blocked.
        var behind = new Dictionary<uint, List<uint>>();
        foreach (uint start in graph.Waits.Keys.Where(t => !inKnot.Contains(t) && !bystanders.Contains(t)).OrderBy(t => t))
        {
            var seen = new HashSet<uint> { start };
            var queue = new Queue<uint>([start]);
            while (queue.Count > 0)
            {
                uint t = queue.Dequeue();
                IReadOnlyList<uint> blockers = graph.Blockers(t);
                if (blockers.Count == 0 && t != start)
                    (behind.TryGetValue(t, out List<uint>? list) ? list : behind[t] = []).Add(start);
                foreach (uint b in blockers)
                    if (seen.Add(b))
                        queue.Enqueue(b);
            }
        }
        foreach ((uint end, List<uint> waiters) in behind.OrderBy(e => e.Key))
        {
            if (waiters.Count < HangDetector.MinChainWaiters || threads.ByOsId(end) is not { } endThread)
                continue;
            yield return Build(endThread, waiters, graph, threads, names);
        }
    }

    private static HangFinding Build(TargetThread end, List<uint> waiters, WaitGraph graph, ThreadIndex threads, LockNames names)
    {
        var evidence = new List<Markup>();
        var refs = new List<ThreadRef>();
        var locks = new List<LockState>();
        foreach (uint os in waiters)
        {
            MarkupBuilder line = Markup.Line().Text("thread ").Thread(os).Text(" ");
            if (WaitLines.Append(line, graph, names, os, heldBy: true) is not { } wait)
                continue;
            if (wait.Lock is { } l && !locks.Contains(l))
                locks.Add(l);
            evidence.Add(line);
            refs.Add(ThreadRefs.For(threads.ByOsId(os)!, wait.Role, graph.WaitOf(os)));
        }
        ThreadWait? endWait = graph.WaitOf(end.OsThreadId);
        string doing = endWait is null ? "is not waiting (it runs, or waits in native code)" : $"waits in {endWait.WaitFrame.ShortName}, which has no owner to follow";
        // A lock named by what it is (glibc's loader lock) says where it lies and what its owner runs: worth a line.
        foreach (LockState named in locks.Where(l => l.Name is not null && l.Detail is not null))
            evidence.Add(Markup.Line().Text($"{names.Name(named)} ").Lock(named).Text($": {named.TypeName}, {named.Detail}"));
        evidence.Add(Markup.Line().Text("the chain ends at thread ").Thread(end.OsThreadId).Text($", which {doing}"));
        refs.Insert(0, ThreadRefs.For(end, $"holds what the chain waits for and {doing}", endWait));
        return new HangFinding
        {
            Kind = HangDetector.BlockedChain,
            Title = $"{waiters.Count} threads blocked behind thread 0x{end.OsThreadId:x}",
            Summary = (locks is [{ Name: { } lockName }] && waiters.All(w => graph.Blockers(w).Contains(end.OsThreadId))
                          ? $"{waiters.Count} threads wait for {lockName}, held by thread {ThreadRefs.Name(end)}, which {doing}. "
                          : $"{waiters.Count} threads wait, one behind the other, for {(locks.Count > 0 ? "locks" : "threads")} that end at thread {ThreadRefs.Name(end)}, which {doing}. ") +
                      $"One dump cannot tell this from busy contention: {SettleWith}.",
            Level = FindingSeverity.Information,
            TimeSettles = true,
            Threads = refs,
            Evidence = evidence,
            Advice = HangAdvice.BlockedChain,
            Locks = locks.Select(names.Describe).ToList(),
        };
    }
}
