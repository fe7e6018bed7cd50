using System.Runtime.ExceptionServices;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Heap;

/// <summary>
/// The objects one interest wants, filled by the heap walk while detectors already read them: an append-only
/// list that a reader can follow as it grows (<see cref="Stream"/>) or take whole once the walk has ended.
/// </summary>
internal sealed class HeapFinds
{
    private readonly List<ClrObject> _objects = [];
    private readonly object _gate = new();
    private bool _ended;
    private ExceptionDispatchInfo? _failure;

    /// <summary>Every object, in address order; only once the walk has ended.</summary>
    public IReadOnlyList<ClrObject> All => _objects;

    public void Add(ClrObject obj)
    {
        lock (_gate)
        {
            _objects.Add(obj);
            Monitor.PulseAll(_gate);
        }
    }

    /// <summary>The walk is over, completely or with <paramref name="failure"/>: readers get what there is, then the failure.</summary>
    public void End(Exception? failure)
    {
        lock (_gate)
        {
            _ended = true;
            _failure = failure is null ? null : ExceptionDispatchInfo.Capture(failure);
            Monitor.PulseAll(_gate);
        }
    }

    /// <summary>The objects in address order as the walk finds them; ends when the walk does.</summary>
    public IEnumerable<ClrObject> Stream(CancellationToken cancellation)
    {
        int next = 0;
        while (true)
        {
            ClrObject[] batch = Take(ref next, cancellation);
            if (batch.Length == 0)
                yield break;
            foreach (ClrObject obj in batch)
                yield return obj;
        }
    }

    /// <summary>What was added since <paramref name="next"/>, waiting for more while the walk runs; empty at the end.</summary>
    private ClrObject[] Take(ref int next, CancellationToken cancellation)
    {
        lock (_gate)
        {
            while (next == _objects.Count && !_ended)
            {
                cancellation.ThrowIfCancellationRequested();
                Monitor.Wait(_gate, TimeSpan.FromMilliseconds(100)); // wakes now and then to see a cancellation
            }
            if (next == _objects.Count)
            {
                _failure?.Throw();
                return [];
            }
            ClrObject[] batch = _objects.GetRange(next, _objects.Count - next).ToArray();
            next = _objects.Count;
            return batch;
        }
    }
}
