using System.Collections.Concurrent;
using System.Runtime.ExceptionServices;

namespace DiagExt.Core.Analysis;

/// <summary>
/// Runs work items on up to N threads, handing out one item at a time in the given order to whichever thread
/// is free (put the biggest first and no thread is left alone with it at the end). With one worker the items
/// run on the calling thread, in order. A failure surfaces as the item's own exception, not an AggregateException.
/// </summary>
public static class WorkerPool
{
    public static void ForEach<T>(IReadOnlyList<T> items, int workers, Action<T> body, CancellationToken cancellation) =>
        ForEach((IEnumerable<T>)items, items.Count <= 1 ? 1 : workers, body, cancellation);

    /// <summary>
    /// The same over a sequence that may still be growing (a heap pass's finds, <see cref="Heap.HeapIndex.Stream"/>):
    /// each thread takes the next item as soon as it is free.
    /// </summary>
    public static void ForEach<T>(IEnumerable<T> items, int workers, Action<T> body, CancellationToken cancellation)
    {
        if (workers <= 1)
        {
            foreach (T item in items)
            {
                cancellation.ThrowIfCancellationRequested();
                body(item);
            }
            return;
        }
        var options = new ParallelOptions { MaxDegreeOfParallelism = workers, CancellationToken = cancellation };
        try
        {
            Parallel.ForEach(Partitioner.Create(items, EnumerablePartitionerOptions.NoBuffering), options, body);
        }
        catch (AggregateException e) when (e.InnerExceptions.Count > 0)
        {
            ExceptionDispatchInfo.Throw(e.InnerExceptions[0]);
        }
    }
}
