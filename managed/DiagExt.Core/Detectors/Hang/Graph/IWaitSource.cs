namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// One kind of wait the graph learns from (managed locks, task chains, native mutexes, ...): recognises its waits on
/// the target's threads and adds them to the graph with the locks they wait for and who holds those. Sources run in
/// order (<see cref="WaitGraphBuilder.Sources"/>): a later one may read what earlier ones added. A source never
/// reports: verdicts read the graph.
/// </summary>
internal interface IWaitSource
{
    void AddTo(WaitGraph graph, HangScene scene);
}
