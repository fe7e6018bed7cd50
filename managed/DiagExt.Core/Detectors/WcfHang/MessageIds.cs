using System.Buffers.Binary;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.WcfHang;

/// <summary>
/// The MessageId of a request, from its correlator key (RequestReplyCorrelator+Key.MessageId, a System.Xml.UniqueId).
/// A UniqueId made from a GUID keeps its 16 bytes as two longs (_idLow, _idHigh) and its text (_s) only once
/// ToString ran; the text is then "urn:uuid:" and the GUID.
/// </summary>
internal static class MessageIds
{
    public static string? OfRequest(ClrObject request, int maxString)
    {
        if (WcfFields.Object(request, WcfNames.CorrelatorKey) is not { } key)
            return null;
        if (WcfFields.Object(key, WcfNames.KeyMessageId, "System.Xml.UniqueId") is not { } id)
            return null;
        return Decode(WcfFields.String(id, WcfNames.UniqueIdText, maxString), WcfFields.Value<long>(id, WcfNames.UniqueIdLow), WcfFields.Value<long>(id, WcfNames.UniqueIdHigh));
    }

    /// <summary>The id's text when the target has it, else the GUID its two halves hold; null when neither is there.</summary>
    public static string? Decode(string? text, long? low, long? high)
    {
        if (!string.IsNullOrEmpty(text))
            return text;
        if (low is not { } l || high is not { } h || (l == 0 && h == 0))
            return null;
        Span<byte> bytes = stackalloc byte[16];
        BinaryPrimitives.WriteInt64LittleEndian(bytes, l);
        BinaryPrimitives.WriteInt64LittleEndian(bytes[8..], h);
        return "urn:uuid:" + new Guid(bytes).ToString("D");
    }
}
