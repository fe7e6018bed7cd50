using DiagExt.Core.Reports;
namespace DiagExt.Core.Detectors.WcfHang;

/// <summary>What wcfhang tells the user: why no reply comes, how long the wait can last, and what to change.</summary>
internal static class WcfHangAdvice
{
    public static string ForSelfDeadlock(bool framework) =>
        "Make the contract all-async (await every call) or all-sync on this channel: never call a sync operation from an APM " +
        "AsyncCallback or from the continuation of a FromAsync/Task operation of the same channel, because that code runs on the " +
        "thread that reads the channel's replies. Workaround: move the sync call off that thread (await Task.Run(() => proxy.Op())). " +
        (framework
            ? "On .NET Framework 'await proxy.OpAsync(); proxy.SyncOp();' hangs the same way: ConfigureAwait(false) does not help, the continuation still runs on the pump."
            : "On .NET the Task-returning form ('await proxy.OpAsync(); proxy.SyncOp();') was fixed in System.ServiceModel 6.0 (Task<T>) and 8.1 (Task); Begin/End pairs and Task.Factory.FromAsync still hang.");

    public static string ForWaiting() =>
        "The call waits for a reply that nobody has read yet. Check, in this order: whether the server answered (its logs, a " +
        "trace of the connection), whether the thread pool is starved (many threads blocked in sync calls: the pump's read " +
        "completion needs a free thread), and whether the connection was lost. Prefer async calls on a busy client.";

    /// <summary>Why a waiter that is not the pump has no reply yet.</summary>
    public static string WhyNoReply(StuckCall call, int otherWaiters)
    {
        string others = otherWaiters > 0 ? $" {otherWaiters} other thread{(otherWaiters == 1 ? "" : "s")} also wait{(otherWaiters == 1 ? "s" : "")} in WaitForReply (a sign of thread-pool starvation if they are many)." : "";
        if (call.OtherPumps.Count > 0)
            return $"thread 0x{call.OtherPumps[0].OsThreadId:x} pumps the channel, so the reply has not arrived or is being delivered: the server may still be working or the connection may be lost.{others}";
        if (call.PumpFrames.Count > 0)
            return $"its stack runs a receive pump, but no proof ties it to this channel (no request of the same binder, no handler on the stack): it may be blocking another channel's replies.{others}";
        return $"no thread pumps the channel now (a read is pending on the socket): the server has not answered yet, or the connection is lost.{others}";
    }

    public static string Waited(TimeSpan? timeout)
    {
        string bound = timeout is { } t ? $"at most the timeout, {DurationText.Setting(t)}" : "at most the operation timeout";
        return $"waiting since: not recorded (neither a dump nor the runtime keeps when a wait began); {bound}";
    }
}
