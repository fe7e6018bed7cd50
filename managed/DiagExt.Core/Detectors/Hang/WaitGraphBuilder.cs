using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>Reads every thread's wait and every waited-for lock's holders into a <see cref="WaitGraph"/>.</summary>
internal static class WaitGraphBuilder
{
    public static WaitGraph Build(Target target, ThreadIndex index, CancellationToken cancellation)
    {
        ClrRuntime runtime = target.Runtime!;
        var monitors = new MonitorOwners(runtime.Heap, cancellation);
        var rwlocks = new RwLockOwners(target.Threads);
        var graph = new WaitGraph();
        foreach (TargetThread thread in target.Threads)
        {
            cancellation.ThrowIfCancellationRequested();
            if (thread.ClrThread is null || WaitFrames.Classify(thread.Frames) is not { } site)
                continue;
            ClrObject waited = WaitTargets.Find(target, thread, site, monitors, index);
            var wait = new ThreadWait(thread, site, waited);
            graph.AddWait(wait);
            if (!wait.IsLockWait || waited.IsNull || graph.Locks.ContainsKey(waited.Address))
                continue;
            graph.AddLock(site.Kind switch
            {
                WaitKind.MonitorEnter => monitors.Read(waited, index),
                WaitKind.LockEnter => LockOwner.Read(waited, index),
                _ => rwlocks.Read(waited, index),
            });
        }
        return graph;
    }
}
