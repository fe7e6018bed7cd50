namespace DiagExt.Core.Detectors.WcfHang;

/// <summary>
/// The type and field names wcfhang reads, for both WCF implementations: .NET Framework's System.ServiceModel
/// (referencesource: fields without a prefix) and dotnet/wcf's System.ServiceModel.Primitives (the same fields with
/// '_'). Type names are the same in both. One table, so the algorithm never knows which one it reads.
/// Checked against System.ServiceModel.Primitives 10.1.0 in real dumps; the Framework names from referencesource.
/// </summary>
internal static class WcfNames
{
    public const string Dispatcher = "System.ServiceModel.Dispatcher.";

    public const string Binder = Dispatcher + "DuplexChannelBinder";
    public const string SyncRequest = Binder + "+SyncDuplexRequest";
    public const string AsyncRequest = Binder + "+AsyncDuplexRequest";
    public const string ChannelHandler = Dispatcher + "ChannelHandler";
    public const string ProxyOperation = Dispatcher + "ProxyOperationRuntime";

    /// <summary>A field by its possible names: dotnet/wcf's first, then .NET Framework's.</summary>
    public sealed record Field(params string[] Names);

    // DuplexChannelBinder+SyncDuplexRequest / +AsyncDuplexRequest
    public static readonly Field Reply = new("_reply", "reply");
    public static readonly Field Parent = new("_parent", "parent");
    public static readonly Field WaitCount = new("_waitCount", "waitCount");
    public static readonly Field GotReply = new("_gotReply", "gotReply");
    public static readonly Field CorrelatorKey = new("_requestCorrelatorKey", "requestCorrelatorKey");

    // RequestReplyCorrelator+Key and System.Xml.UniqueId
    public static readonly Field KeyMessageId = new("MessageId", "<MessageId>k__BackingField");
    public static readonly Field UniqueIdLow = new("_idLow", "idLow");
    public static readonly Field UniqueIdHigh = new("_idHigh", "idHigh");
    public static readonly Field UniqueIdText = new("_s", "s");

    // DuplexChannelBinder
    public static readonly Field Channel = new("_channel", "channel");
    public static readonly Field BinderHandler = new("_channelHandler", "channelHandler");
    public static readonly Field Requests = new("_requests", "requests");
    public static readonly Field SendTimeout = new("_defaultSendTimeout", "defaultSendTimeout");

    // ChannelHandler
    public static readonly Field HandlerBinder = new("_duplexBinder", "duplexBinder");
    public static readonly Field IsPumpAcquired = new("_isPumpAcquired", "isPumpAcquired");
    public static readonly Field HandlerServiceChannel = new("<Channel>k__BackingField", "channel", "_channel");

    // ServiceChannel
    public static readonly Field OperationTimeout = new("_operationTimeout", "operationTimeout");

    // ProxyOperationRuntime
    public static readonly Field OperationName = new("<Name>k__BackingField", "name");
    public static readonly Field OperationAction = new("<Action>k__BackingField", "action");

    // The transport channel (ClientFramingDuplexSessionChannel and its bases) and EndpointAddress / Uri
    public static readonly Field RemoteAddress = new("_to", "to");
    public static readonly Field Via = new("_via", "via");
    public static readonly Field AddressUri = new("<Uri>k__BackingField", "uri");
    public static readonly Field UriString = new("_string", "m_String");
}
