using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// The waits a thread's managed frames name (<see cref="WaitFrames"/>: Monitor, Lock, ReaderWriterLockSlim, SemaphoreSlim,
/// task waits, Join, events, Sleep), the object each waits for (<see cref="WaitTargets"/>) and, for a lock, who holds it:
/// the sync-block table and thin locks (<see cref="MonitorOwners"/>), Lock's owner field (<see cref="LockOwner"/>),
/// ReaderWriterLockSlim's owner ids and reader counts (<see cref="RwLockOwners"/>).
/// </summary>
internal sealed class ManagedWaits : IWaitSource
{
    public void AddTo(WaitGraph graph, HangScene scene)
    {
        Target target = scene.Target;
        ClrRuntime runtime = target.Runtime!;
        var monitors = new MonitorOwners(runtime.Heap, scene.Cancellation);
        var rwlocks = new RwLockOwners(target.Threads);
        foreach (TargetThread thread in target.Threads)
        {
            scene.Cancellation.ThrowIfCancellationRequested();
            if (thread.ClrThread is null || WaitFrames.Classify(thread.Frames) is not { } site)
                continue;
            ClrObject waited = WaitTargets.Find(target, thread, site, monitors, scene.Threads, scene.SetAside);
            var wait = new ThreadWait(thread, site, waited);
            graph.AddWait(wait);
            if (!wait.IsLockWait || waited.IsNull || graph.Locks.ContainsKey(waited.Address))
                continue;
            graph.AddLock(site.Kind switch
            {
                WaitKind.MonitorEnter => monitors.Read(waited, scene.Threads),
                WaitKind.LockEnter => LockOwner.Read(waited, scene.Threads),
                _ => rwlocks.Read(waited, scene.Threads),
            });
        }
    }
}
