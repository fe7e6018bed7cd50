using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.WcfHang;

/// <summary>
/// One DuplexChannelBinder+SyncDuplexRequest or +AsyncDuplexRequest as read from the heap. A sync request is
/// pending while it has no reply: WaitForReply waits on its event until GotReply stores the reply and sets it
/// (seen in dumps: a pending one has reply null and waitCount 0, a finished one its reply and waitCount 2).
/// </summary>
internal sealed record DuplexRequest(ulong Address, bool IsSync, ulong Binder, bool HasReply, int? WaitCount, bool? GotReply, string? MessageId)
{
    public bool IsPending => IsSync && !HasReply;

    public static DuplexRequest Read(ClrObject request, int maxString)
    {
        bool isSync = WcfFields.IsA(request, WcfNames.SyncRequest);
        // The parent is read raw: a request whose parent is not a binder is still a request, with no channel to report.
        ClrObject? binder = WcfFields.Object(request, WcfNames.Parent, WcfNames.Binder);
        return new DuplexRequest(
            request.Address,
            isSync,
            binder?.Address ?? 0,
            WcfFields.Reference(request, WcfNames.Reply) != 0,
            WcfFields.Value<int>(request, WcfNames.WaitCount),
            isSync ? null : WcfFields.Value<bool>(request, WcfNames.GotReply),
            MessageIds.OfRequest(request, maxString));
    }
}
