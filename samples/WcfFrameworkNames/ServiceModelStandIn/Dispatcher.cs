// The .NET Framework WCF client types wcfhang reads, with referencesource's field names (no '_' prefix) and the
// call chain of a sync call made on the receive pump. Not WCF: no .NET Framework runs here, and a Framework dump
// cannot be made, so this stand-in is how the Framework half of wcfhang's name table meets a real process and a real
// dump. Field and type names follow microsoft/referencesource System.ServiceModel (DuplexChannelBinder.cs,
// ChannelHandler.cs, ProxyOperationRuntime.cs, RequestReplyCorrelator.cs); the behaviour is reduced to the hang.
#pragma warning disable CS0414, CS0649, CA1822 // fields exist to be read from the dump, not by this code
using System.Runtime.CompilerServices;
using System.Xml;

namespace System.ServiceModel.Dispatcher;

public sealed class ProxyOperationRuntime(string name, string action)
{
    internal readonly string name = name;
    internal readonly string action = action;
}

public sealed class ChannelHandler
{
    public DuplexChannelBinder? duplexBinder;
    internal int isPumpAcquired;
    internal object? channel;

    /// <summary>The receive pump: reads a message and hands it to the binder; the reply's completion runs on this thread.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public void AsyncMessagePump(Action<ProxyOperationRuntime> completion, ProxyOperationRuntime next)
    {
        isPumpAcquired = 1;
        HandleRequest(completion, next);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void HandleRequest(Action<ProxyOperationRuntime> completion, ProxyOperationRuntime next) => HandleRequestAsReply(completion, next);

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void HandleRequestAsReply(Action<ProxyOperationRuntime> completion, ProxyOperationRuntime next) =>
        duplexBinder!.HandleRequestAsReply(completion, next);
}

public sealed class DuplexChannelBinder
{
    internal object channel;
    public ChannelHandler? channelHandler;
    internal List<object> requests = [];
    internal TimeSpan defaultSendTimeout = TimeSpan.FromMinutes(30);

    public DuplexChannelBinder(object channel) => this.channel = channel;

    [MethodImpl(MethodImplOptions.NoInlining)]
    internal void HandleRequestAsReply(Action<ProxyOperationRuntime> completion, ProxyOperationRuntime next)
    {
        var delivered = new AsyncDuplexRequest(this);
        requests.Add(delivered);
        delivered.GotReply(completion, next);
    }

    /// <summary>A sync call: waits for a reply only the pump would read.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public void Request(ProxyOperationRuntime operation)
    {
        var request = new SyncDuplexRequest(this, new RequestReplyCorrelatorKey(new UniqueId(Guid.NewGuid())));
        requests.Add(request);
        request.WaitForReply(operation);
    }

    public sealed class SyncDuplexRequest(DuplexChannelBinder parent, RequestReplyCorrelatorKey key)
    {
        internal object? reply;
        internal readonly DuplexChannelBinder parent = parent;
        internal readonly ManualResetEvent wait = new(false);
        internal int waitCount;
        internal readonly RequestReplyCorrelatorKey requestCorrelatorKey = key;

        [MethodImpl(MethodImplOptions.NoInlining)]
        internal void WaitForReply(ProxyOperationRuntime operation)
        {
            GC.KeepAlive(operation);
            wait.WaitOne();
        }
    }

    public sealed class AsyncDuplexRequest(DuplexChannelBinder parent)
    {
        internal bool gotReply;
        internal readonly DuplexChannelBinder parent = parent;
        internal object? reply;

        [MethodImpl(MethodImplOptions.NoInlining)]
        internal void GotReply(Action<ProxyOperationRuntime> completion, ProxyOperationRuntime next)
        {
            reply = new object();
            gotReply = true;
            Done(completion, next);
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private void Done(Action<ProxyOperationRuntime> completion, ProxyOperationRuntime next) => completion(next);
    }
}

/// <summary>RequestReplyCorrelator+Key in referencesource; a top-level stand-in keeps the field name that matters.</summary>
public sealed class RequestReplyCorrelatorKey(UniqueId messageId)
{
    internal readonly UniqueId MessageId = messageId;
}
