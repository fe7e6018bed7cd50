using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// Threads blocked in a sync socket call (<see cref="SocketFrames"/>): each a wait of kind Socket on the Socket object
/// found in the wait's stack range, replacing the event wait <see cref="ManagedWaits"/> saw when the call waits inside
/// SocketAsyncContext. No thread holds a socket the way a lock is held: only the peer (or a timeout) ends the wait,
/// so these add no edge; <see cref="RemoteWaits"/> reports them by endpoint.
/// </summary>
internal sealed class SocketWaits : IWaitSource
{
    public void AddTo(WaitGraph graph, HangScene scene)
    {
        foreach (TargetThread thread in scene.Target.Threads)
        {
            scene.Cancellation.ThrowIfCancellationRequested();
            if (thread.ClrThread is null || SocketFrames.Classify(thread.Frames) is not { } wait)
                continue;
            IReadOnlyList<ClrObject> sockets = FrameObjects.InWait(scene.Target, thread, wait.Site, type => type.Name == HangNames.Socket);
            ClrObject socket = sockets.FirstOrDefault(s => RemotePeer.Of(s) is not null);
            graph.AddWait(new ThreadWait(thread, wait.Site, socket.IsNull && sockets.Count > 0 ? sockets[0] : socket));
        }
    }
}
