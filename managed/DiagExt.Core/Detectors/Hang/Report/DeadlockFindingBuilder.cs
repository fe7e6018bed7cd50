using DiagExt.Core.Reports;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// A deadlock finding from one knot of the wait-for graph: the cycle as a chain ("thread A holds X, waits for Y held by
/// thread B ..."; a step may be a wait on a task another member runs, or a Join), the threads that wait on the cycle
/// from outside it (bystanders) apart, and every lock.
/// </summary>
internal static class DeadlockFindingBuilder
{
    public static HangFinding Build(IReadOnlyList<uint> knot, WaitGraph graph, ThreadIndex threads, IReadOnlyList<uint> bystanders, LockNames names)
    {
        IReadOnlyList<uint> cycle = CycleFinder.OrderedCycle(knot, graph.Blockers);
        var steps = new List<HangCycleStep>();
        var evidence = new List<Markup>();
        var refs = new List<ThreadRef>();
        var locks = new List<LockState>();
        for (int i = 0; i < cycle.Count; i++)
        {
            uint os = cycle[i], next = cycle[(i + 1) % cycle.Count], previous = cycle[(i + cycle.Count - 1) % cycle.Count];
            TargetThread thread = threads.ByOsId(os)!;
            ThreadWait wait = graph.WaitOf(os)!;
            LockState? waitsFor = graph.LockWaitedBy(os);
            ObjectWait? onObject = waitsFor is null ? graph.ObjectWaitOf(os) : null;
            LockState? holds = graph.LockWaitedBy(previous) is { } p && p.Holders.Any(h => h.OsThreadId == os) ? p : null;
            HoldMode? holdMode = holds?.Holders.First(h => h.OsThreadId == os).Mode;
            if (waitsFor is not null)
                AddOnce(locks, waitsFor);
            steps.Add(new HangCycleStep
            {
                OsThreadId = os,
                ManagedThreadId = thread.ManagedThreadId,
                Holds = holds is null ? null : holds.Address,
                WaitsFor = waitsFor?.Address ?? onObject?.Waited ?? 0,
                Frame = wait.WaitFrame.ShortName,
                CallerFrame = wait.FirstUserCode?.ShortName,
            });
            MarkupBuilder line = Markup.Line().Text("thread ").Thread(os).Text(thread.ManagedThreadId is int m ? $" (managed {m})" : "");
            if (holds is not null)
                line.Text($" holds {names.Name(holds)}{LockNames.Mode(holdMode!.Value)} ").Lock(holds).Text(",");
            if (waitsFor is not null)
                line.Text($" waits for {names.Name(waitsFor)}{Wanted(wait.Site.Kind)} ").Lock(waitsFor).Text(" held by thread ").Thread(next);
            else if (onObject is not null)
                ObjectWaitLines.Append(line.Text(" "), onObject);
            line.Text($" (at {wait.Where})");
            evidence.Add(line);
            string waitsText = waitsFor is not null ? $"waits for {names.Name(waitsFor)} {(Address)waitsFor.Address} held by 0x{next:x}" : ObjectWaitLines.Role(onObject);
            string role = holds is null
                ? $"in the cycle: {waitsText}"
                : $"in the cycle: holds {names.Name(holds)} {(Address)holds.Address}, {waitsText}";
            refs.Add(ThreadRefs.For(thread, role, wait));
        }
        var others = knot.Except(cycle).OrderBy(t => t).ToList();
        foreach (uint os in others)
        {
            MarkupBuilder line = Markup.Line().Text("also in the knot: thread ").Thread(os).Text(" ");
            if (WaitLines.Append(line, graph, names, os, heldBy: false) is not { } wait)
                continue;
            if (wait.Lock is { } l)
                AddOnce(locks, l);
            evidence.Add(line);
            refs.Add(ThreadRefs.For(threads.ByOsId(os)!, $"in the knot: {wait.Role}", graph.WaitOf(os)));
        }
        foreach (uint os in bystanders)
        {
            MarkupBuilder line = Markup.Line().Text("bystander: thread ").Thread(os).Text(" ");
            if (WaitLines.Append(line, graph, names, os, heldBy: true) is not { } wait)
                continue;
            if (wait.Lock is { } l)
                AddOnce(locks, l);
            evidence.Add(line.Text("; it is not in the cycle and cannot go on until the cycle is broken"));
            refs.Add(ThreadRefs.For(threads.ByOsId(os)!, $"bystander: {wait.Role}", graph.WaitOf(os)));
        }
        foreach (LockState l in locks)
            if (l.Detail is not null || l.UnknownOwners.Count > 0)
                evidence.Add(Markup.Line().Text($"{names.Name(l)} ").Lock(l).Text($": {TypeNames.Short(l.TypeName)}{(names.Path(l.Address) is { } path ? $" in {path}" : "")}, {names.Describe(l).Detail}"));

        bool rw = locks.Any(l => l.Kind == LockKindName.RwLock);
        string kinds = string.Join(", ", locks.Select(KindWord)
            .Concat(cycle.Select(graph.ObjectWaitOf).OfType<ObjectWait>().Select(o => o.WaitedName == "Thread" ? "Thread.Join" : "a task wait")).Distinct());
        string chain = string.Join(" -> ", cycle.Select(t => $"0x{t:x}")) + $" -> 0x{cycle[0]:x}";
        bool lockOnly = cycle.All(t => graph.ObjectWaitOf(t) is null);
        return new HangFinding
        {
            Kind = HangDetector.Deadlock,
            Title = $"Deadlock: {cycle.Count} thread{(cycle.Count == 1 ? "" : "s")} wait for each other{(lockOnly ? "'s locks" : "")} ({kinds}): {chain}",
            Summary = (lockOnly
                          ? "Each thread of the cycle holds a lock the previous one waits for and waits for a lock the next one holds: none of them can go on, ever."
                          : "Each thread of the cycle waits for the next one: for a lock it holds, for a task it is running, or for it to end (Join): none of them can go on, ever.") +
                      (bystanders.Count > 0 ? $" {bystanders.Count} more thread{(bystanders.Count == 1 ? " waits" : "s wait")} on the cycle's locks (bystanders, listed apart)." : ""),
            Threads = refs,
            Evidence = evidence,
            Advice = locks.Any(l => l.Name == GlibcLoaderLock.LoadLockName) ? HangAdvice.LoaderLockDeadlock : rw ? HangAdvice.RwLockDeadlock : lockOnly ? HangAdvice.Deadlock : HangAdvice.TaskDeadlock,
            Locks = locks.Select(names.Describe).ToList(),
            Cycle = steps,
        };
    }

    private static void AddOnce(List<LockState> locks, LockState state)
    {
        if (!locks.Any(l => l.Address == state.Address))
            locks.Add(state);
    }

    private static string Wanted(WaitKind kind) => kind switch
    {
        WaitKind.ReadLock => " (to read)",
        WaitKind.UpgradeableLock => " (upgradeable)",
        WaitKind.WriteLock => " (to write)",
        _ => "",
    };

    private static string KindWord(LockState l) => l.Kind switch
    {
        LockKindName.Monitor => "Monitor",
        LockKindName.Lock => "System.Threading.Lock",
        LockKindName.RwLock => "ReaderWriterLockSlim",
        LockKindName.NativeMutex => l.TypeName == CriticalSectionWaits.TypeName ? "critical section" : "pthread mutex",
        _ => "SemaphoreSlim",
    };
}
