using DiagExt.Core.Analysis;
using DiagExt.Core.Heap;
using DiagExt.Core.Reports;
using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.WcfHang;

/// <summary>
/// WCF client calls stuck in DuplexChannelBinder+SyncDuplexRequest.WaitForReply, and whether the waiting thread is
/// the channel's own receive pump (a sync call made from the completion of an earlier async call: it can never
/// get its reply).
/// </summary>
public sealed class WcfHangDetector : IDetector
{
    public const string CommandName = "wcfhang";
    public const string SelfDeadlock = "self-deadlock";
    public const string WaitingForReply = "waiting-for-reply";

    private readonly WcfTypes _types = new();

    public string Name => CommandName;

    public string Description => "WCF client calls stuck waiting for a reply, and the sync call made on its channel's own receive thread";

    public string Explanation =>
        "Finds every pending DuplexChannelBinder+SyncDuplexRequest (a sync WCF call without its reply; .NET Framework's " +
        "System.ServiceModel and dotnet/wcf's System.ServiceModel.Primitives) and the thread waiting for it in WaitForReply. " +
        "When the same stack, further out, runs the channel's receive pump (ChannelHandler.AsyncMessagePump -> HandleRequestAsReply -> " +
        "AsyncDuplexRequest.GotReply) for the same binder, the call was made from the completion of an earlier call (an APM callback, " +
        "a FromAsync continuation) and waits for a reply only its own thread would read: 'self-deadlock'. A waiter that is not the pump " +
        "is 'waiting-for-reply' (a warning), with who pumps the channel. Reported: the operation and its Action, the MessageId, the remote " +
        "address, the user frame that made the call, the timeout that will end it, and the request, binder and handler addresses. " +
        "Costs nothing on a process without WCF loaded.";

    public DetectorNeeds Needs => DetectorNeeds.ManagedRuntime;

    public IHeapInterest HeapInterest => _types;

    public FindingContract Contract { get; } = new(CommandName, typeof(WcfHangFinding), WcfHangJson.Default);

    public string? DoesNotApply(Target target) =>
        WcfTypes.FindWcfModule(target.Runtime!) is null ? "no WCF client: neither System.ServiceModel nor System.ServiceModel.Primitives is loaded" : null;

    public IReadOnlyList<Finding> Analyze(AnalysisContext context)
    {
        if (WcfTypes.FindWcfModule(context.Target.Runtime!) is not { } module)
            return []; // DoesNotApply said so: the analysis does not run

        int maxString = context.Target.Limits.MaxStringLength;
        var requests = new List<DuplexRequest>();
        var operations = new List<ProxyOperation>();
        foreach (ClrObject obj in context.Heap.Stream(_types, context.Cancellation))
        {
            if (obj.Type?.Name == WcfNames.ProxyOperation)
                operations.Add(ProxyOperation.Read(obj, maxString));
            else
                requests.Add(DuplexRequest.Read(obj, maxString));
        }

        StuckCallFinder.Result result = StuckCallFinder.Find(context.Target, requests, operations, context.Cancellation);
        if (result.PendingWithoutWaiter > 0)
            context.Note($"{result.PendingWithoutWaiter} pending sync request{(result.PendingWithoutWaiter == 1 ? "" : "s")} with no thread waiting in WaitForReply (being sent, timed out, or the stack was not captured)");
        if (result.Calls.Count == 0)
            context.Note($"{module}: {requests.Count(r => r.IsSync)} sync ({result.Pending} pending) and {requests.Count(r => !r.IsSync)} async duplex requests on the heap; no thread waits for a reply");
        bool framework = module == "System.ServiceModel";
        return result.Calls
            .Select(call => (Finding)WcfHangFindingBuilder.Build(call, framework, result.Calls.Count - 1))
            .OrderBy(f => f.Kind == SelfDeadlock ? 0 : 1)
            .ToList();
    }
}
