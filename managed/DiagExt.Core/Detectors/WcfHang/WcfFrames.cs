using DiagExt.Core.Targets;

namespace DiagExt.Core.Detectors.WcfHang;

/// <summary>
/// The frames that tell a stuck WCF call from its stack (innermost first). A sync call waits in
/// SyncDuplexRequest.WaitForReply; the proxy frame above it names the operation (dotnet/wcf's DispatchProxy
/// makes a type "generatedProxy_N"; .NET Framework's transparent proxy has no frame); the receive pump's frames
/// (ChannelHandler.AsyncMessagePump -> HandleRequest -> HandleRequestAsReply -> AsyncDuplexRequest.GotReply),
/// further out on the same stack, say that the thread waiting for the reply is the one that would read it.
/// </summary>
internal static class WcfFrames
{
    private static readonly (string Type, string Method)[] PumpMethods =
    [
        (WcfNames.ChannelHandler, "AsyncMessagePump"),
        (WcfNames.ChannelHandler, "SyncMessagePump"),
        (WcfNames.ChannelHandler, "OnAsyncReceiveComplete"),
        (WcfNames.ChannelHandler, "HandleReceiveComplete"),
        (WcfNames.ChannelHandler, "HandleRequest"),
        (WcfNames.ChannelHandler, "HandleRequestAsReply"),
        (WcfNames.ChannelHandler, "DispatchAndReleasePump"),
        (WcfNames.Binder, "HandleRequestAsReply"),
        (WcfNames.Binder, "HandleRequestAsReplyCore"),
        (WcfNames.AsyncRequest, "GotReply"),
        (WcfNames.AsyncRequest, "Done"),
    ];

    public static bool IsWaitForReply(ManagedFrame frame) => frame.TypeName == WcfNames.SyncRequest && frame.MethodName == "WaitForReply";

    /// <summary>A frame of the ChannelHandler's receive pump delivering a message (a reply) on this thread.</summary>
    public static bool IsPump(ManagedFrame frame) => PumpMethods.Contains((frame.TypeName ?? "", frame.MethodName ?? ""));

    /// <summary>A frame of the pump itself (ChannelHandler), as opposed to the reply delivery it calls.</summary>
    public static bool IsHandlerPump(ManagedFrame frame) => frame.TypeName == WcfNames.ChannelHandler && IsPump(frame);

    public static int IndexOfWaitForReply(IReadOnlyList<ManagedFrame> frames)
    {
        for (int i = 0; i < frames.Count; i++)
            if (IsWaitForReply(frames[i]))
                return i;
        return -1;
    }

    /// <summary>The generated proxy's frame outside <paramref name="from"/>: its method is the operation called.</summary>
    public static ManagedFrame? ProxyFrame(IReadOnlyList<ManagedFrame> frames, int from)
    {
        for (int i = from + 1; i < frames.Count; i++)
            if (frames[i].TypeName is { } type && type.StartsWith("generatedProxy_", StringComparison.Ordinal))
                return frames[i];
        return null;
    }

    /// <summary>The first frame of the user's own code outside <paramref name="from"/>: the code that made the sync call.</summary>
    public static int UserFrame(IReadOnlyList<ManagedFrame> frames, int from)
    {
        for (int i = from + 1; i < frames.Count; i++)
            if (frames[i].IsUserCode && !frames[i].TypeName!.StartsWith("generatedProxy_", StringComparison.Ordinal))
                return i;
        return -1;
    }
}
