namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// Builds the wait-for graph by asking each wait source in turn. Order matters: the managed waits and the locks they
/// wait for first, then the waits on tasks, threads and events followed to their end (it needs every wait read first,
/// since a thread waiting on a task is not the one running it).
/// </summary>
internal static class WaitGraphBuilder
{
    /// <summary>Every source, in the order they run. Adding a source: its file under Sources/, a line here.</summary>
    public static readonly IReadOnlyList<IWaitSource> Sources = [new ManagedWaits(), new SocketWaits(), new NativeMutexWaits(), new CriticalSectionWaits(), new ObjectWaitChains(), new ContextWaits()];

    public static WaitGraph Build(HangScene scene)
    {
        var graph = new WaitGraph();
        foreach (IWaitSource source in Sources)
        {
            scene.Cancellation.ThrowIfCancellationRequested();
            source.AddTo(graph, scene);
        }
        return graph;
    }
}
