namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// The wait-for graph: threads wait for locks, locks are held by threads. An edge thread -> thread means "cannot go on
/// until that one releases": a lock's holders in a mode that excludes the waiter's (a reader does not block a reader);
/// or, for a wait on a task or a Join (<see cref="ObjectWait"/>), the thread running that task or being joined.
/// </summary>
internal sealed class WaitGraph
{
    private readonly Dictionary<uint, ThreadWait> _waits = [];
    private readonly Dictionary<ulong, LockState> _locks = [];
    private readonly Dictionary<uint, ObjectWait> _objects = [];

    public void AddWait(ThreadWait wait) => _waits[wait.Thread.OsThreadId] = wait;

    public void AddLock(LockState state) => _locks[state.Address] = state;

    public void AddObjectWait(uint thread, ObjectWait wait) => _objects[thread] = wait;

    public IReadOnlyDictionary<uint, ThreadWait> Waits => _waits;

    /// <summary>Waits on tasks, threads and ManualResetEventSlims, followed to their end.</summary>
    public IReadOnlyDictionary<uint, ObjectWait> ObjectWaits => _objects;

    public ObjectWait? ObjectWaitOf(uint thread) => _objects.GetValueOrDefault(thread);

    public IReadOnlyDictionary<ulong, LockState> Locks => _locks;

    public ThreadWait? WaitOf(uint thread) => _waits.GetValueOrDefault(thread);

    public LockState? LockWaitedBy(uint thread) =>
        _waits.TryGetValue(thread, out ThreadWait? wait) && wait.IsLockWait && wait.WaitedAddress != 0 ? _locks.GetValueOrDefault(wait.WaitedAddress) : null;

    /// <summary>The threads that must release before <paramref name="thread"/> can take the lock it waits for.</summary>
    public IReadOnlyList<uint> Blockers(uint thread)
    {
        if (_objects.TryGetValue(thread, out ObjectWait? objectWait))
            return objectWait.Blocker is uint b && b != thread ? [b] : [];
        if (!_waits.TryGetValue(thread, out ThreadWait? wait) || LockWaitedBy(thread) is not { } state)
            return [];
        var blockers = new List<uint>();
        foreach ((uint holder, HoldMode mode) in state.Holders)
            if (holder != thread && Excludes(wait.Site.Kind, mode) && !blockers.Contains(holder))
                blockers.Add(holder);
        return blockers;
    }

    /// <summary>Locks <paramref name="thread"/> holds, of those the graph knows.</summary>
    public IEnumerable<(LockState Lock, HoldMode Mode)> HeldBy(uint thread) =>
        _locks.Values.SelectMany(l => l.Holders.Where(h => h.OsThreadId == thread).Select(h => (l, h.Mode)));

    private static bool Excludes(WaitKind wanted, HoldMode held) => wanted switch
    {
        WaitKind.ReadLock => held == HoldMode.Write,
        WaitKind.UpgradeableLock => held is HoldMode.Write or HoldMode.Upgradeable,
        _ => true,
    };
}
