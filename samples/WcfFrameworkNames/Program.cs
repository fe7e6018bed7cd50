// wcfhang's .NET Framework names in a real process: the client-side hang of the WCF story, built on a stand-in
// assembly named System.ServiceModel whose types and fields carry .NET Framework's names (see
// ServiceModelStandIn/Dispatcher.cs). A thread pumps the channel, delivers an async reply, and the user's completion
// makes a sync call (Commit) that waits for a reply only that thread would read. Prints "READY <pid>" once it waits.
using System.ServiceModel.Dispatcher;

var binder = new DuplexChannelBinder(channel: new object());
var handler = new ChannelHandler { duplexBinder = binder };
binder.channelHandler = handler;
var commit = new ProxyOperationRuntime("Commit", "urn:diagext:wcfhang/ILedger/Commit");
var waiting = new ManualResetEventSlim();

var pump = new Thread(() => handler.AsyncMessagePump(operation => UserCode.AfterPrepare(binder, operation, waiting), commit)) { IsBackground = true };
pump.Start();
waiting.Wait();
Thread.Sleep(200); // inside WaitForReply by now
Console.WriteLine($"hung: Commit waiting on the receive thread (managed thread {pump.ManagedThreadId})");
Console.WriteLine($"READY {Environment.ProcessId}");
Thread.Sleep(Timeout.Infinite);

static class UserCode
{
    /// <summary>The user's completion of Prepare, run by the pump: it makes the sync call.</summary>
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    public static void AfterPrepare(DuplexChannelBinder binder, ProxyOperationRuntime operation, ManualResetEventSlim waiting)
    {
        waiting.Set();
        binder.Request(operation);
    }
}
