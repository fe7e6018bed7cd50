namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// The waits on tasks, threads and ManualResetEventSlims the managed waits found, each followed to what would end it
/// (<see cref="WaitFollower"/>): the thread running the task or being joined is an edge of the graph.
/// </summary>
internal sealed class ObjectWaitChains : IWaitSource
{
    public void AddTo(WaitGraph graph, HangScene scene)
    {
        var waitersOf = graph.Waits.Values.Where(w => !w.Target.IsNull)
            .GroupBy(w => w.Target.Address)
            .ToDictionary(g => g.Key, g => g.Select(w => w.Thread.OsThreadId).ToHashSet());
        var follower = new WaitFollower(scene.Target, scene.Threads, scene.Waitables, waitersOf);
        foreach (ThreadWait wait in graph.Waits.Values.ToList())
        {
            scene.Cancellation.ThrowIfCancellationRequested();
            if (follower.Follow(wait) is { } followed)
                graph.AddObjectWait(wait.Thread.OsThreadId, followed);
        }
        foreach ((uint os, ObjectWait cut) in graph.ObjectWaits.Where(w => w.Value.End == WaitEnd.Cut).OrderBy(w => w.Key))
            scene.SetAside($"thread 0x{os:x}: {cut.Describe()}");
    }
}
