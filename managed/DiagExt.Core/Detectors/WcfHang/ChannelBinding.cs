using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.WcfHang;

/// <summary>
/// A DuplexChannelBinder and what hangs off it: its ChannelHandler (the receive pump: _isPumpAcquired is 1 while a
/// thread pumps), the transport channel and where it goes, and the timeouts that will end a stuck call. Every
/// hop is one field read with its type checked, so a heap whose references loop or point anywhere ends the
/// reading, never the analysis. The handler must point back at the binder to count as its pump.
/// </summary>
internal sealed record ChannelBinding(
    ulong Binder,
    ulong Handler,
    bool HandlerPointsBack,
    int? IsPumpAcquired,
    ulong Channel,
    string? ChannelType,
    string? RemoteAddress,
    string? Via,
    TimeSpan? SendTimeout,
    TimeSpan? OperationTimeout)
{
    public static ChannelBinding Read(ClrHeap heap, ulong binderAddress, int maxString)
    {
        ClrObject binder = heap.GetObject(binderAddress);
        ClrObject? handler = WcfFields.Object(binder, WcfNames.BinderHandler, WcfNames.ChannelHandler);
        ClrObject? channel = WcfFields.Object(binder, WcfNames.Channel);
        ClrObject? serviceChannel = handler is { } h ? WcfFields.Object(h, WcfNames.HandlerServiceChannel) : null;
        return new ChannelBinding(
            binderAddress,
            handler?.Address ?? 0,
            handler is { } hh && WcfFields.Reference(hh, WcfNames.HandlerBinder) == binderAddress,
            handler is { } hp ? WcfFields.Value<int>(hp, WcfNames.IsPumpAcquired) : null,
            channel?.Address ?? 0,
            channel?.Type?.Name,
            channel is { } c ? AddressOf(c, WcfNames.RemoteAddress, maxString) : null,
            channel is { } v ? UriText(WcfFields.Object(v, WcfNames.Via), maxString) : null,
            Ticks(WcfFields.Value<long>(binder, WcfNames.SendTimeout)),
            serviceChannel is { } s ? Ticks(WcfFields.Value<long>(s, WcfNames.OperationTimeout)) : null);
    }

    /// <summary>An EndpointAddress field as its URI text.</summary>
    private static string? AddressOf(ClrObject channel, WcfNames.Field field, int maxString) =>
        WcfFields.Object(channel, field) is { } address ? UriText(WcfFields.Object(address, WcfNames.AddressUri), maxString) : null;

    private static string? UriText(ClrObject? uri, int maxString) =>
        uri is { } u ? WcfFields.String(u, WcfNames.UriString, maxString) : null;

    private static TimeSpan? Ticks(long? ticks) => ticks is { } t && t >= 0 ? TimeSpan.FromTicks(t) : null;
}
