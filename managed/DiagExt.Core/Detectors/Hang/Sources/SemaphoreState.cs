using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// A SemaphoreSlim as the target records it: its count, its sync waiters (a count only: they are threads in
/// SemaphoreSlim.Wait) and its async waiters, the queued TaskNode list from m_asyncHead, each followed to the async
/// method awaiting it. It has no owner: nothing here says who holds it.
/// </summary>
internal sealed record SemaphoreState(ClrObject Semaphore, int Count, int? Max, int SyncWaiters, IReadOnlyList<(ulong Node, AsyncWaiter? Waiter)> AsyncWaiters)
{
    /// <summary>Nodes followed in one queue: a loop or a corrupt list ends here.</summary>
    public const int MaxNodes = 4096;

    public static SemaphoreState Read(ClrObject semaphore)
    {
        var waiters = new List<(ulong, AsyncWaiter?)>();
        var seen = new HashSet<ulong>();
        ClrObject node = FieldReader.Object(semaphore, HangNames.AsyncHead);
        for (int n = 0; !node.IsNull && n < MaxNodes && seen.Add(node.Address); n++)
        {
            waiters.Add((node.Address, AsyncWaiter.FromContinuation(FieldReader.Object(node, HangNames.ContinuationObject))));
            node = FieldReader.Object(node, HangNames.NodeNext);
        }
        return new SemaphoreState(semaphore, FieldReader.Int(semaphore, HangNames.CurrentCount) ?? -1, FieldReader.Int(semaphore, HangNames.MaxCount),
            FieldReader.Int(semaphore, HangNames.WaitCount) ?? 0, waiters);
    }

    public string Detail => $"count {Count}{(Max is int m ? $" of {m}" : "")}, {AsyncWaiters.Count} async waiter{(AsyncWaiters.Count == 1 ? "" : "s")}, {SyncWaiters} sync";
}
