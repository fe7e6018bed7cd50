using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// Reads every thread's wait and every waited-for lock's holders into a <see cref="WaitGraph"/>, then follows the waits
/// on tasks, threads and ManualResetEventSlims (<see cref="WaitFollower"/>: it needs every wait read first, since a
/// thread waiting on a task is not the one running it).
/// </summary>
internal static class WaitGraphBuilder
{
    public static WaitGraph Build(Target target, ThreadIndex index, Waitables waitables, Action<string> setAside, CancellationToken cancellation)
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
            ClrObject waited = WaitTargets.Find(target, thread, site, monitors, index, setAside);
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
        var waitersOf = graph.Waits.Values.Where(w => !w.Target.IsNull)
            .GroupBy(w => w.Target.Address)
            .ToDictionary(g => g.Key, g => g.Select(w => w.Thread.OsThreadId).ToHashSet());
        var follower = new WaitFollower(target, index, waitables, waitersOf);
        foreach (ThreadWait wait in graph.Waits.Values.ToList())
        {
            cancellation.ThrowIfCancellationRequested();
            if (follower.Follow(wait) is { } followed)
                graph.AddObjectWait(wait.Thread.OsThreadId, followed);
        }
        return graph;
    }
}
