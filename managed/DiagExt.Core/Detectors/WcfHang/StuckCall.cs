using DiagExt.Core.Targets;

namespace DiagExt.Core.Detectors.WcfHang;

/// <summary>What wcfhang concludes about one pending sync request.</summary>
internal enum StuckCallVerdict
{
    /// <summary>The thread waiting for the reply is the channel's receive pump, which alone would read it: certain.</summary>
    SelfDeadlock,

    /// <summary>A thread waits for the reply and is not the pump: something else keeps the reply away.</summary>
    WaitingForReply,
}

/// <summary>One pending sync request with the thread waiting for it and the proof, gathered by <see cref="StuckCallFinder"/>.</summary>
internal sealed record StuckCall(
    DuplexRequest Request,
    ChannelBinding? Binding,
    TargetThread Waiter,
    int WaitFrame,
    IReadOnlyList<ManagedFrame> PumpFrames,
    DuplexRequest? Delivering,
    bool WaiterHoldsHandler,
    IReadOnlyList<TargetThread> OtherPumps,
    ProxyOperation? Operation,
    string? OperationFromFrame,
    int UserFrame)
{
    /// <summary>
    /// The waiter is the pump when its stack, outside WaitForReply, runs the pump's frames for this very channel:
    /// it holds an AsyncDuplexRequest of the same binder (the reply being delivered) or the binder's handler.
    /// </summary>
    public bool WaiterIsPump => PumpFrames.Any(WcfFrames.IsHandlerPump) && (Delivering is not null || WaiterHoldsHandler);

    public StuckCallVerdict Verdict => WaiterIsPump ? StuckCallVerdict.SelfDeadlock : StuckCallVerdict.WaitingForReply;

    /// <summary>The operation's name: the proxy frame's method, else the ProxyOperationRuntime the waiter's stack holds.</summary>
    public string? OperationName => OperationFromFrame ?? Operation?.Name;
}
