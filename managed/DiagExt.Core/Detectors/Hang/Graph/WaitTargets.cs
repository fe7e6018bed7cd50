using DiagExt.Core.Heap;
using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// Names the object a blocked thread waits for: the object of the wait's type in the wait's stack range
/// (<see cref="FrameObjects"/>), cross-checked against who holds what: of several candidates, the one another
/// thread holds (a Monitor, a Lock) or that has not completed (a task) is the one waited for.
/// </summary>
internal static class WaitTargets
{
    public static ClrObject Find(Target target, TargetThread thread, WaitFrames.Site site, MonitorOwners monitors, ThreadIndex threads, Action<string>? setAside = null)
    {
        IReadOnlyList<ClrObject> candidates = site.Kind is WaitKind.Task or WaitKind.Join or WaitKind.ResetEvent
            ? FrameObjects.HeldInWait(target, thread, site, Wanted(site.Kind), setAside)
            : FrameObjects.InWait(target, thread, site, Wanted(site.Kind));
        if (candidates.Count <= 1)
            return candidates.Count == 1 ? candidates[0] : default;
        return site.Kind switch
        {
            WaitKind.MonitorEnter => candidates.FirstOrDefault(c => HeldByOther(monitors.Read(c, threads), thread)) is { IsNull: false } held ? held
                : candidates.FirstOrDefault(monitors.IsHeld),
            WaitKind.LockEnter => candidates.FirstOrDefault(c => HeldByOther(LockOwner.Read(c, threads), thread)) is { IsNull: false } held ? held : candidates[0],
            WaitKind.Task => candidates.FirstOrDefault(c => !TaskState.IsCompleted(c)) is { IsNull: false } pending ? pending : candidates[0],
            WaitKind.Join => candidates.FirstOrDefault(c => FieldReader.Int(c, HangNames.ManagedThreadId) != thread.ManagedThreadId),
            _ => candidates[0],
        };
    }

    private static bool HeldByOther(LockState state, TargetThread thread) =>
        state.Holders.Any(h => h.OsThreadId != thread.OsThreadId) || state.UnknownOwners.Count > 0;

    private static Func<ClrType, bool> Wanted(WaitKind kind) => kind switch
    {
        WaitKind.MonitorEnter or WaitKind.MonitorWait => type => !type.IsFree && !type.IsString && type.Name != HangNames.Thread,
        WaitKind.LockEnter => type => type.Name == HangNames.Lock,
        WaitKind.ReadLock or WaitKind.UpgradeableLock or WaitKind.WriteLock => type => type.Name == HangNames.ReaderWriterLockSlim,
        WaitKind.Semaphore => type => type.Name == HangNames.SemaphoreSlim,
        WaitKind.Task => IsTask,
        WaitKind.Join => type => type.Name == HangNames.Thread,
        WaitKind.ResetEvent => type => type.Name == HangNames.ManualResetEventSlim,
        _ => _ => false,
    };

    public static bool IsTask(ClrType type)
    {
        foreach (ClrType t in TypeHierarchy.SelfAndBases(type))
            if (t.Name == HangNames.Task)
                return true;
        return false;
    }
}
