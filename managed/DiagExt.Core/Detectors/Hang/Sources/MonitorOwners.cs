using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// Monitor (C# lock) owners: a contended lock is a sync block (owner = the runtime Thread, recursion), an uncontended
/// one a thin lock in the object's header (owner's managed id); ClrMD reads both. A thread waiting in Monitor.Enter
/// has inflated the lock, so every waited-on monitor is in the sync-block table.
/// </summary>
internal sealed class MonitorOwners
{
    /// <summary>Sync blocks read at most: the table is per process and a corrupt one can claim any count.</summary>
    public const int MaxSyncBlocks = 1_000_000;

    private readonly Dictionary<ulong, SyncBlock> _held = [];

    public MonitorOwners(ClrHeap heap, CancellationToken cancellation)
    {
        int n = 0;
        foreach (SyncBlock block in heap.EnumerateSyncBlocks())
        {
            if (++n > MaxSyncBlocks)
                break;
            if ((n & 0xFFF) == 0)
                cancellation.ThrowIfCancellationRequested();
            if (block.IsMonitorHeld && block.Object != 0)
                _held.TryAdd(block.Object, block);
        }
    }

    /// <summary>Objects whose monitor is held per the sync-block table.</summary>
    public IEnumerable<ulong> HeldObjects => _held.Keys;

    /// <summary>Whether the object's monitor is held (sync block or thin lock).</summary>
    public bool IsHeld(ClrObject obj) => _held.ContainsKey(obj.Address) || ThinOwner(obj) is not null;

    public LockState Read(ClrObject obj, ThreadIndex threads)
    {
        string type = obj.Type?.Name ?? "?";
        if (_held.TryGetValue(obj.Address, out SyncBlock? block))
        {
            TargetThread? owner = threads.ByRuntimeAddress(block.HoldingThreadAddress);
            string detail = $"recursion {block.RecursionCount}";
            return owner is null
                ? new LockState(obj.Address, type, LockKindName.Monitor, []) { UnknownOwners = [$"runtime thread {(Address)block.HoldingThreadAddress}"], Detail = detail }
                : new LockState(obj.Address, type, LockKindName.Monitor, [(owner.OsThreadId, HoldMode.Owner)]) { Detail = detail };
        }
        if (ThinOwner(obj) is { } thin)
        {
            TargetThread? owner = thin.Thread is { } t ? threads.ByOsId(t.OSThreadId) : null;
            return owner is null
                ? new LockState(obj.Address, type, LockKindName.Monitor, []) { UnknownOwners = ["a thin lock whose thread is gone"] }
                : new LockState(obj.Address, type, LockKindName.Monitor, [(owner.OsThreadId, HoldMode.Owner)]) { Detail = $"thin lock, recursion {thin.Recursion}" };
        }
        return new LockState(obj.Address, type, LockKindName.Monitor, []);
    }

    private static ClrThinLock? ThinOwner(ClrObject obj)
    {
        try
        {
            return obj.GetThinLock() is { Thread: not null } thin ? thin : null;
        }
        catch (Exception e) when (e is InvalidOperationException or ArgumentException or IOException)
        {
            return null;
        }
    }
}
