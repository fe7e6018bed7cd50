using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// The heap pass's semaphores and TaskCompletionSources (<see cref="WaitableInterest"/>), indexed the way a task chain
/// needs them: which semaphore a WaitAsync node is queued on, which sources complete a promise task. Each index is
/// built on first use: the heap pass runs in the background meanwhile, and most processes never need them.
/// </summary>
internal sealed class Waitables
{
    /// <summary>No heap pass (a watch's look): a wait only the heap's semaphores or promise sources would explain stays unexplained.</summary>
    public static Waitables None => new(() => Array.Empty<ClrObject>());

    private readonly Func<IReadOnlyList<ClrObject>> _objects;
    private readonly Lazy<Dictionary<ulong, SemaphoreState>> _semaphoreOfNode;
    private readonly Lazy<ILookup<ulong, ulong>> _sourcesOfTask;

    /// <param name="objects">The heap pass's finds, asked for only when a chain needs them.</param>
    public Waitables(Func<IReadOnlyList<ClrObject>> objects)
    {
        _objects = objects;
        _semaphoreOfNode = new(ReadNodes, LazyThreadSafetyMode.None);
        _sourcesOfTask = new(ReadSources, LazyThreadSafetyMode.None);
    }

    public IEnumerable<ClrObject> Semaphores => _objects().Where(o => o.Type?.Name == HangNames.SemaphoreSlim);

    /// <summary>The async socket operations (<see cref="SocketOperation"/>), pending or not.</summary>
    public IEnumerable<ClrObject> SocketOperations => _objects().Where(o => SocketOperation.Wants(o.Type?.Name));

    /// <summary>The semaphore whose async waiter list holds <paramref name="node"/>; only semaphores with async waiters are read.</summary>
    public SemaphoreState? SemaphoreOfNode(ulong node) => _semaphoreOfNode.Value.GetValueOrDefault(node);

    /// <summary>The TaskCompletionSources whose task is <paramref name="task"/>.</summary>
    public IEnumerable<ulong> SourcesOf(ulong task) => _sourcesOfTask.Value[task];

    private Dictionary<ulong, SemaphoreState> ReadNodes()
    {
        var ofNode = new Dictionary<ulong, SemaphoreState>();
        foreach (ClrObject s in Semaphores.Take(AsyncDeadlocks.MaxSemaphores))
        {
            SemaphoreState state = SemaphoreState.Read(s);
            foreach ((ulong n, AsyncWaiter? _) in state.AsyncWaiters)
                ofNode.TryAdd(n, state);
        }
        return ofNode;
    }

    private ILookup<ulong, ulong> ReadSources() =>
        _objects().Where(o => WaitableInterest.IsPromiseSource(o.Type?.Name))
            .Select(source => (Source: source.Address, Task: FieldReader.Object(source, HangNames.PromiseTask)))
            .Where(p => !p.Task.IsNull)
            .ToLookup(p => p.Task.Address, p => p.Source);
}
