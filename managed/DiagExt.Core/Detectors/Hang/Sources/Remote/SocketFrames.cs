using DiagExt.Core.Targets;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// Tells a thread blocked in a sync socket call from its innermost frames. Read in .NET 10 dumps: on Linux a blocking
/// socket's Receive is Interop+Sys.ReceiveMessage &lt;- SocketPal.SysReceive &lt;- SocketAsyncContext.ReceiveFrom &lt;-
/// Socket.Receive; a socket that once went async (non-blocking) waits in SocketAsyncContext.PerformSyncOperation on a
/// ManualResetEventSlim (which <see cref="WaitFrames"/> alone would call an event wait); on Windows Interop+Winsock.recv
/// &lt;- SocketPal.Receive &lt;- Socket.Receive. The outermost Socket or NetworkStream call of that run names the wait; Accept
/// (a server waiting for clients) and Poll/Select are not waits on a peer.
/// </summary>
internal static class SocketFrames
{
    /// <summary>A sync socket wait: where (<see cref="WaitFrames.Site"/> of kind Socket) and which way ("receive", "send", "connect").</summary>
    public sealed record Wait(WaitFrames.Site Site, string Direction);

    /// <summary>Frames looked at from the innermost: the plumbing of a socket call is about ten.</summary>
    private const int MaxPlumbing = 32;

    public static Wait? Classify(IReadOnlyList<ManagedFrame> frames)
    {
        int waitFrame = -1, i = 0;
        string? direction = null;
        bool accept = false;
        for (; i < frames.Count && i < MaxPlumbing; i++)
        {
            ManagedFrame frame = frames[i];
            if (frame.MethodName is null)
                continue;
            string type = frame.TypeName!;
            if (!IsPlumbing(type))
                break;
            if (type is HangNames.Socket or NetworkStream && Direction(frame.MethodName) is { } d)
            {
                waitFrame = i;
                direction = d;
            }
            accept |= frame.MethodName.StartsWith("Accept", StringComparison.Ordinal);
        }
        if (waitFrame < 0 || accept || direction is null)
            return null;
        return new Wait(new WaitFrames.Site(WaitKind.Socket, waitFrame, i < frames.Count ? i : -1), direction);
    }

    private const string NetworkStream = "System.Net.Sockets.NetworkStream";

    private static bool IsPlumbing(string type) =>
        type.StartsWith("Interop", StringComparison.Ordinal) || type.StartsWith("System.Net.Sockets.", StringComparison.Ordinal)
        || type.StartsWith("System.Threading.", StringComparison.Ordinal) || type.StartsWith("System.Runtime.CompilerServices.", StringComparison.Ordinal);

    private static string? Direction(string method) =>
        method.StartsWith("Receive", StringComparison.Ordinal) || method.StartsWith("Read", StringComparison.Ordinal) ? "receive"
        : method.StartsWith("Send", StringComparison.Ordinal) || method.StartsWith("Write", StringComparison.Ordinal) ? "send"
        : method.StartsWith("Connect", StringComparison.Ordinal) ? "connect"
        : null;
}
