using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.WcfHang;

/// <summary>
/// Ties each pending sync request to the thread waiting for it and gathers the proof of who pumps its channel.
/// A waiter is the thread whose stack has SyncDuplexRequest.WaitForReply and holds the request (registers or
/// live stack words, the request live: <see cref="TargetThread.Holds(ulong)"/>); the DAC's GC-info root walk is not used
/// (it crashes .NET 9+ DACs on some threads, see <see cref="TargetThread.Stack"/>).
/// </summary>
internal static class StuckCallFinder
{
    /// <summary>Most pending requests examined: a heap claiming more is hostile or far past one hang.</summary>
    public const int MaxPendingRequests = 4096;

    public sealed record Result(IReadOnlyList<StuckCall> Calls, int Pending)
    {
        /// <summary>Pending requests no thread waits for: being sent, timed out, or their thread's stack not captured.</summary>
        public int PendingWithoutWaiter => Pending - Calls.Count;
    }

    public static Result Find(Target target, IReadOnlyList<DuplexRequest> requests, IReadOnlyList<ProxyOperation> operations, CancellationToken cancellation)
    {
        ClrHeap heap = target.Runtime!.Heap;
        int maxString = target.Limits.MaxStringLength;
        var waiters = target.Threads.Select(t => (Thread: t, Wait: WcfFrames.IndexOfWaitForReply(t.Frames))).Where(w => w.Wait >= 0).ToList();
        var pumps = target.Threads.Where(t => t.Frames.Any(WcfFrames.IsHandlerPump)).ToList();
        var asyncRequests = requests.Where(r => !r.IsSync).ToList();
        var bindings = new Dictionary<ulong, ChannelBinding>();

        var calls = new List<StuckCall>();
        var pending = requests.Where(r => r.IsPending).Take(MaxPendingRequests).ToList();
        foreach (DuplexRequest request in pending)
        {
            cancellation.ThrowIfCancellationRequested();
            var (waiter, wait) = waiters.FirstOrDefault(w => w.Thread.Holds(request.Address).Counts);
            if (waiter is null)
                continue; // nothing to prove
            ChannelBinding? binding = request.Binder == 0 ? null
                : bindings.TryGetValue(request.Binder, out ChannelBinding? known) ? known
                : bindings[request.Binder] = ChannelBinding.Read(heap, request.Binder, maxString);
            calls.Add(Gather(waiter, wait, request, binding, asyncRequests, pumps, operations));
        }
        return new Result(calls, pending.Count);
    }

    private static StuckCall Gather(TargetThread waiter, int wait, DuplexRequest request, ChannelBinding? binding,
        IReadOnlyList<DuplexRequest> asyncRequests, IReadOnlyList<TargetThread> pumps, IReadOnlyList<ProxyOperation> operations)
    {
        IReadOnlyList<ManagedFrame> frames = waiter.Frames;
        var pumpFrames = frames.Skip(wait + 1).Where(WcfFrames.IsPump).ToList();
        // The reply being delivered when the sync call was made: an async request of the same binder, on this stack.
        DuplexRequest? delivering = request.Binder == 0 ? null
            : asyncRequests.FirstOrDefault(a => a.Binder == request.Binder && waiter.Holds(a.Address).Counts);
        bool holdsHandler = binding is { Handler: not 0, HandlerPointsBack: true } && waiter.Holds(binding.Handler).Counts;
        var otherPumps = binding is null ? []
            : pumps.Where(p => p != waiter && (p.Holds(binding.Binder).Counts || p.Holds(binding.Handler).Counts)).ToList();

        ManagedFrame? proxy = WcfFrames.ProxyFrame(frames, wait);
        // Naming, not evidence: the waiter is proven above, and an operation is an argument its frames pass along (only the
        // stack keeps it, so the liveness rule of Holds would drop it). Any copy on its live stack is a candidate; with a
        // proxy frame only the operation of that name counts (a stack can hold stale references to others).
        var held = operations.Where(o => waiter.Stack.Find(o.Address) is not null).ToList();
        ProxyOperation? operation = proxy is not null ? held.FirstOrDefault(o => o.Name == proxy.MethodName) : held.Count == 1 ? held[0] : null;
        return new StuckCall(request, binding, waiter, wait, pumpFrames, delivering, holdsHandler,
            otherPumps, operation, proxy?.MethodName, WcfFrames.UserFrame(frames, wait));
    }
}
