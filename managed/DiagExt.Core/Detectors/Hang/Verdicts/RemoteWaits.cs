using DiagExt.Core.Reports;
using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// Threads and requests waiting on a remote server, one finding per endpoint ("2 threads and 3 requests wait on
/// 127.0.0.1:5432 (Npgsql), no timeout"): threads in a sync socket call (<see cref="SocketWaits"/>), threads in
/// .Result/.Wait() on a task whose async chain ends at a pending socket operation (<see cref="WaitEnd.Remote"/>), and
/// pending operations no blocked thread waits for (the heap pass's, <see cref="SocketOperation"/>). Worded by the
/// timeout the waits have: none is a hazard (only the peer can end them), a value a note. One dump cannot tell a
/// server that stopped answering from requests in flight to a busy one; a live look can: an endpoint whose waiting
/// threads moved while watched is answering, and is set aside.
/// </summary>
internal sealed class RemoteWaits : IHangVerdict
{
    /// <summary>Socket operations read from the heap pass: two per socket that went async; a service has hundreds, not tens of thousands.</summary>
    public const int MaxOperations = 10_000;

    /// <summary>Requests listed one by one in a finding's evidence; the rest are counted.</summary>
    private const int MaxListed = 8;

    public bool InWatch => false;

    private sealed record Waiter(RemotePeer Peer, TargetThread? Thread, ThreadWait? Wait, string Direction, RemoteClient Client, SocketOperation? Operation, ObjectWait? Chain);

    public IEnumerable<HangFinding> Find(WaitGraph graph, HangScene scene)
    {
        ClrHeap heap = scene.Target.Runtime!.Heap;
        var waiters = new List<Waiter>();
        foreach (ThreadWait wait in graph.Waits.Values.Where(w => w.Site.Kind == WaitKind.Socket).OrderBy(w => w.Thread.OsThreadId))
        {
            if (RemotePeer.Of(wait.Target) is not { } peer)
                continue; // a server's accepted socket, or no socket in the wait's range
            string direction = SocketFrames.Classify(wait.Thread.Frames)?.Direction ?? "receive";
            waiters.Add(new Waiter(peer, wait.Thread, wait, direction, RemoteClient.OfThread(wait.Thread, peer, direction), null, null));
        }
        var behindThreads = new HashSet<ulong>();
        foreach ((uint os, ObjectWait chain) in graph.ObjectWaits.Where(e => e.Value.End == WaitEnd.Remote).OrderBy(e => e.Key))
        {
            scene.Cancellation.ThrowIfCancellationRequested();
            if (SocketOperation.Pending(heap.GetObject(chain.EndObject)) is not { } operation || RemotePeer.Of(operation.Socket) is not { } peer
                || scene.Threads.ByOsId(os) is not { } thread)
                continue;
            behindThreads.Add(chain.EndObject);
            waiters.Add(new Waiter(peer, thread, graph.WaitOf(os), operation.Direction, RemoteClient.OfOperation(operation), operation, chain));
        }
        int read = 0;
        foreach (ClrObject args in scene.Waitables.SocketOperations)
        {
            scene.Cancellation.ThrowIfCancellationRequested();
            if (++read > MaxOperations)
            {
                scene.SetAside($"remote waits: read the first {MaxOperations} async socket operations of the heap, the rest not counted");
                break;
            }
            if (behindThreads.Contains(args.Address) || SocketOperation.Pending(args) is not { } operation || RemotePeer.Of(operation.Socket) is not { } peer)
                continue;
            waiters.Add(new Waiter(peer, null, null, operation.Direction, RemoteClient.OfOperation(operation), operation, null));
        }
        return waiters.GroupBy(w => w.Peer.Endpoint, StringComparer.Ordinal).OrderBy(g => g.Key, StringComparer.Ordinal)
            .Select(g => Build(g, scene)).OfType<HangFinding>();
    }

    /// <summary>
    /// A live look watched the threads for a second: one that used CPU or changed its system call got an answer (or
    /// sent the next request), so the server answers; a dump has no such proof and reports what it sees.
    /// </summary>
    private static bool Moved(TargetThread thread) => thread.Cpu is { MovedWhileWatched: true };

    private static HangFinding? Build(IGrouping<string, Waiter> group, HangScene scene)
    {
        string endpoint = group.Key;
        var threads = group.Where(w => w.Thread is not null).ToList();
        var requests = group.Where(w => w.Thread is null).ToList();
        if (scene.Target.Kind == TargetKind.LiveProcess && threads.Where(w => Moved(w.Thread!)).Select(w => w.Thread!).ToList() is { Count: > 0 } moved)
        {
            scene.SetAside($"{threads.Count + requests.Count} waits on {endpoint}: thread{(moved.Count == 1 ? "" : "s")} {string.Join(", ", moved.Select(t => $"0x{t.OsThreadId:x}"))} moved while watched: answers come");
            return null;
        }
        // The clients, most waits first: a library, or "Socket" for code that uses the socket itself.
        string library = string.Join(", ", group.GroupBy(w => w.Client.Library ?? "Socket").OrderByDescending(g => g.Count()).ThenBy(g => g.Key, StringComparer.Ordinal).Select(g => g.Key));
        // The worst timeout names the finding: one wait with none is enough to hang for good.
        RemoteTimeout worst = group.Select(w => w.Client.Timeout).OrderBy(t => t.Kind switch
        {
            RemoteTimeout.Kinds.None => 0,
            RemoteTimeout.Kinds.Unknown => 1,
            RemoteTimeout.Kinds.Os => 2,
            _ => 3,
        }).ThenByDescending(t => t.Value ?? TimeSpan.Zero).First();
        string who = Count(threads.Count, "thread") + (threads.Count > 0 && requests.Count > 0 ? " and " : "") + (requests.Count > 0 ? Count(requests.Count, "request") : "");
        string verb = threads.Count + requests.Count == 1 ? "waits" : "wait";
        string via = $" ({library})";
        string timeoutWords = worst.Kind switch
        {
            RemoteTimeout.Kinds.None => "no timeout",
            RemoteTimeout.Kinds.Value => $"timeout {RemoteTimeout.Seconds(worst.Value!.Value)}",
            RemoteTimeout.Kinds.Os => "the OS's connect timeout",
            _ => "timeout unknown",
        };

        var evidence = new List<Markup>();
        var refs = new List<ThreadRef>();
        foreach (Waiter w in threads.OrderBy(w => w.Thread!.OsThreadId))
        {
            MarkupBuilder line = Markup.Line().Text("thread ").Thread(w.Thread!.OsThreadId).Text(w.Operation is null
                ? $" in {w.Wait?.Where ?? "a socket call"}: a sync {w.Direction} on Socket "
                : $" in {w.Wait?.Where ?? "a task wait"} on {w.Chain!.WaitedName} ")
                .Object(w.Operation is null ? w.Peer.Socket : w.Chain!.Waited);
            line.Text(w.Operation is null ? $", {w.Client.Timeout.Text}" : $", whose async chain ends at a pending {w.Direction} on Socket ");
            if (w.Operation is not null)
                line.Object(w.Peer.Socket).Text($", {w.Client.Timeout.Text}");
            evidence.Add(line);
            string client = $" ({w.Client.Library ?? "Socket"})";
            string role = w.Operation is null
                ? $"blocked in a sync socket {w.Direction} on {endpoint}{client}"
                : $"blocked on a task awaiting a socket {w.Direction} on {endpoint}{client}";
            refs.Add(ThreadRefs.For(w.Thread!, role, w.Wait));
        }
        foreach (Waiter w in requests.Take(MaxListed))
        {
            AsyncWaiter? method = AsyncWaiter.FromContinuation(w.Operation!.Awaiter);
            evidence.Add(Markup.Line().Text($"request: {w.Direction} pending on Socket ").Object(w.Peer.Socket)
                .Text($" (operation ").Object(w.Operation.Args).Text($"), awaited by {(method is null ? "an unknown continuation" : $"async {method.Method}")}, no thread blocked on it, {w.Client.Timeout.Text}"));
        }
        if (requests.Count > MaxListed)
            evidence.Add(Markup.Text($"... and {requests.Count - MaxListed} more requests pending on {endpoint}"));

        // One dump cannot tell a dead server from requests in flight to a busy one (a healthy client under load looks the
        // same), so there a wait that no timeout ends is a note saying what settles it (issue 42's rule); a live look
        // that watched every waiting thread stand still, or a dump series in which nothing moved, makes it the hazard.
        bool watched = scene.Target.Kind == TargetKind.LiveProcess && threads.Count > 0 && threads.All(w => w.Thread!.Cpu is { Watched: true });
        bool unbounded = worst.Kind is RemoteTimeout.Kinds.None or RemoteTimeout.Kinds.Unknown;
        string level = worst.Kind switch
        {
            RemoteTimeout.Kinds.None => "Nothing but the server can end them: if it stopped answering, they wait forever.",
            RemoteTimeout.Kinds.Value => $"Each ends, answered or not, within {RemoteTimeout.Seconds(worst.Value!.Value)}.",
            RemoteTimeout.Kinds.Os => "A blocking connect ends at the OS's own limit.",
            _ => "Whether a timeout ends them could not be read.",
        };
        return new HangFinding
        {
            Kind = HangDetector.RemoteWait,
            Title = $"{who} {verb} on {endpoint}{via}, {timeoutWords}",
            Summary = $"{char.ToUpperInvariant(who[0])}{who[1..]} {verb} for an answer from {endpoint}{via}: {worst.Text}. {level} " +
                      (watched ? "No waiting thread used CPU or changed its system call while the process was watched."
                          : "One dump cannot tell a server that stopped answering from requests in flight to a busy one: a second dump in 5-10 s, analysed with this one, or a live look at the process settles it."),
            Threads = refs,
            Evidence = evidence,
            Advice = Advice,
            Level = !unbounded || !watched ? FindingSeverity.Information
                : worst.Kind == RemoteTimeout.Kinds.None ? FindingSeverity.Hazard : FindingSeverity.Warning,
            TimeSettles = unbounded && !watched && threads.Count > 0,
            Remote = new HangRemote
            {
                Endpoint = endpoint,
                Library = library,
                Threads = threads.Count,
                Requests = requests.Count,
                Timeout = worst.Kind.ToString().ToLowerInvariant(),
                TimeoutSeconds = group.All(w => w.Client.Timeout.Kind == RemoteTimeout.Kinds.Value) ? worst.Value?.TotalSeconds : null,
            },
        };
    }

    private const string Advice =
        "Give every call to a remote service a timeout (HttpClient.Timeout, Socket.ReceiveTimeout, the client library's command and connect timeouts, " +
        "or a CancellationToken with CancelAfter), so a server that stops answering costs one failed request, not a thread or a request forever; " +
        "then see why the server does not answer (is it up, overloaded, blocked by a firewall that drops packets?).";

    private static string Count(int n, string what) => n == 1 ? $"1 {what}" : $"{n} {what}s";
}
