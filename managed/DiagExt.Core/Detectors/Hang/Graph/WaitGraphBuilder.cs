namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// Builds the wait-for graph by asking each wait source in turn. Order matters: the managed waits and the locks they
/// wait for first, then the waits on tasks, threads and events followed to their end (it needs every wait read first,
/// since a thread waiting on a task is not the one running it). A source that throws is noted and skipped.
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
            try
            {
                Analysis.FailureInjection.ThrowIfAsked("hang/" + source.GetType().Name);
                source.AddTo(graph, scene);
            }
            catch (Exception e) when (e is not (OperationCanceledException or OutOfMemoryException))
            {
                // Corrupt target data one source trips on (a native stack, a socket object) costs that source's waits, not
                // the graph: the others' cycles are still proven. Said, so a quiet report is not read as a full one.
                scene.Note($"{source.GetType().Name} failed ({e.GetType().Name}: {e.Message}): its waits are not in the graph");
            }
        }
        return graph;
    }
}
