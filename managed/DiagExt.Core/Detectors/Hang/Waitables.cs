using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// The heap pass's semaphores and TaskCompletionSources (<see cref="WaitableInterest"/>), indexed the way a task chain
/// needs them: which semaphore a WaitAsync node is queued on, which sources complete a promise task.
/// </summary>
internal sealed class Waitables
{
    private readonly Dictionary<ulong, SemaphoreState> _semaphoreOfNode = [];
    private readonly Dictionary<ulong, List<ulong>> _sourcesOfTask = [];
    private bool _nodesRead;

    private readonly Func<IReadOnlyList<ClrObject>> _objects;
    private bool _sourcesRead;

    /// <param name="objects">The heap pass's finds, asked for only when a chain needs them (the walk runs in the background meanwhile).</param>
    public Waitables(Func<IReadOnlyList<ClrObject>> objects) => _objects = objects;

    public IEnumerable<ClrObject> Semaphores => _objects().Where(o => o.Type?.Name == HangNames.SemaphoreSlim);

    /// <summary>The semaphore whose async waiter list holds <paramref name="node"/>; read lazily, only for semaphores with async waiters.</summary>
    public SemaphoreState? SemaphoreOfNode(ulong node)
    {
        if (!_nodesRead)
        {
            _nodesRead = true;
            foreach (ClrObject s in Semaphores.Take(AsyncDeadlocks.MaxSemaphores))
            {
                SemaphoreState state = SemaphoreState.Read(s);
                foreach ((ulong n, AsyncWaiter? _) in state.AsyncWaiters)
                    _semaphoreOfNode.TryAdd(n, state);
            }
        }
        return _semaphoreOfNode.GetValueOrDefault(node);
    }

    /// <summary>The TaskCompletionSources whose task is <paramref name="task"/>.</summary>
    public IReadOnlyList<ulong> SourcesOf(ulong task)
    {
        if (!_sourcesRead)
        {
            _sourcesRead = true;
            foreach (ClrObject source in _objects().Where(o => WaitableInterest.IsPromiseSource(o.Type?.Name)))
            {
                ClrObject promise = FieldReader.Object(source, HangNames.PromiseTask);
                if (!promise.IsNull)
                    (_sourcesOfTask.TryGetValue(promise.Address, out List<ulong>? list) ? list : _sourcesOfTask[promise.Address] = []).Add(source.Address);
            }
        }
        return _sourcesOfTask.GetValueOrDefault(task) ?? [];
    }
}
