using System.Text.Json.Serialization;
using DiagExt.Core.Reports;

namespace DiagExt.Core.Detectors.WcfHang;

/// <summary>A WCF client call stuck waiting for its reply, with the channel it waits on and the proof.</summary>
public sealed record WcfHangFinding : Finding
{
    public override string Detector => WcfHangDetector.CommandName;

    /// <summary>A self-deadlock is certain; a call waiting for a reply another thread should read is a warning.</summary>
    public override FindingSeverity Severity => Kind == WcfHangDetector.SelfDeadlock ? FindingSeverity.Hazard : FindingSeverity.Warning;

    /// <summary>The operation called, e.g. "Commit", when the stack or the heap names it.</summary>
    public string? Operation { get; init; }

    /// <summary>The operation's Action header, when its ProxyOperationRuntime was found.</summary>
    public string? Action { get; init; }

    /// <summary>The pending request's MessageId ("urn:uuid:..."), when its correlator key is readable.</summary>
    public string? MessageId { get; init; }

    /// <summary>The SyncDuplexRequest's address as a hex string.</summary>
    public required Address RequestAddress { get; init; }

    public Address? BinderAddress { get; init; }

    public Address? ChannelHandlerAddress { get; init; }

    public Address? ChannelAddress { get; init; }

    public string? ChannelType { get; init; }

    /// <summary>Where the channel goes (EndpointAddress) and its Via, as the target holds them.</summary>
    public string? RemoteAddress { get; init; }

    public string? Via { get; init; }

    /// <summary>ChannelHandler._isPumpAcquired: 1 while a thread pumps the channel.</summary>
    public int? PumpAcquired { get; init; }

    /// <summary>The timeout that ends the wait: the proxy's OperationTimeout, else the binding's SendTimeout.</summary>
    [JsonPropertyName("timeoutSeconds"), JsonConverter(typeof(SecondsJsonConverter))]
    public TimeSpan? Timeout { get; init; }

    /// <summary>The user's frame that made the sync call.</summary>
    public string? CallerFrame { get; init; }

    /// <summary>The facts the verdict rests on: which frames, which objects, one per line.</summary>
    public required IReadOnlyList<string> Proof { get; init; }
}
