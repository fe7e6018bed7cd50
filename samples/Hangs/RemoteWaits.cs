using System.Net;
using System.Net.Sockets;

namespace Hangs;

/// <summary>
/// Requests to servers that accept and never answer (issue 40, part 3). Two loopback listeners of this process accept
/// connections and never read or write ("silent" and "slow"):
/// - silent: two threads in a sync Socket.Receive with no receive timeout ("recv1", "recv2"); two threads blocked in
///   .Result on HttpClient.GetStringAsync with Timeout = InfiniteTimeSpan ("http1", "http2"); three more such requests
///   that no thread waits for (pure async, only the heap holds them).
/// - slow: one thread in .Result on an HttpClient whose Timeout is 100 s ("timed").
/// Prints "remote NAME 127.0.0.1:PORT", "async NAME COUNT" and a thread line per blocked thread, waits until every
/// request has reached the server (its bytes are in the accepted socket's buffer), then is ready.
/// </summary>
internal static class RemoteWaits
{
    public const int PendingRequests = 3;

    /// <summary>Held so that nothing is collected or closed: the accepted sockets and the requests nobody waits for.</summary>
    private static readonly List<Socket> Accepted = [];
    private static readonly List<object> Kept = [];

    public static void Run()
    {
        IPEndPoint silent = Listen("silent");
        IPEndPoint slow = Listen("slow");
        var infinite = new HttpClient { Timeout = Timeout.InfiniteTimeSpan };
        var timed = new HttpClient { Timeout = TimeSpan.FromSeconds(100) };
        Kept.Add(infinite);
        Kept.Add(timed);

        var threads = new List<Thread>();
        foreach (string name in new[] { "recv1", "recv2" })
            threads.Add(Blocked.Start(name, () =>
            {
                var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { ReceiveTimeout = 0 };
                socket.Connect(silent);
                socket.Send("PING\r\n"u8);
                Blocked.Say(name, "nothing", "silent");
                socket.Receive(new byte[16]);
            }));
        foreach (string name in new[] { "http1", "http2" })
            threads.Add(Blocked.Start(name, () =>
            {
                Blocked.Say(name, "nothing", "silent");
                Console.WriteLine(infinite.GetStringAsync($"http://{silent}/{name}").Result);
            }));
        threads.Add(Blocked.Start("timed", () =>
        {
            Blocked.Say("timed", "nothing", "slow");
            Console.WriteLine(timed.GetStringAsync($"http://{slow}/timed").Result);
        }));
        lock (Kept)
            for (int i = 0; i < PendingRequests; i++)
                Kept.Add(infinite.GetStringAsync($"http://{silent}/async{i}"));
        Console.WriteLine($"async silent {PendingRequests}");

        // Every request's bytes wait unread in an accepted socket: each client has sent and now reads.
        int expected = 2 + 2 + PendingRequests + 1;
        for (int i = 0; i < 600 && Arrived() < expected; i++)
            Thread.Sleep(50);
        if (Arrived() < expected)
            throw new InvalidOperationException($"only {Arrived()} of {expected} requests reached the servers");
        Thread.Sleep(500); // the receivers are in recv(2) by now; ThreadState cannot tell a thread in a native call
    }

    /// <summary>
    /// A healthy client under load: a loopback server that answers every request at once, four threads looping on
    /// HttpClient.GetStringAsync(...).Result (Timeout = InfiniteTimeSpan) and two on a sync Send/Receive with no timeout.
    /// A dump catches requests in flight; a live look sees the threads move.
    /// </summary>
    public static void Healthy()
    {
        var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        var endpoint = (IPEndPoint)listener.LocalEndpoint;
        Console.WriteLine($"remote busy {endpoint}");
        Blocked.Start("busy-server", () =>
        {
            while (true)
            {
                Socket client = listener.AcceptSocket();
                Blocked.Start("busy-connection", () => Answer(client));
            }
        });
        var http = new HttpClient { Timeout = Timeout.InfiniteTimeSpan };
        Kept.Add(http);
        for (int i = 0; i < 4; i++)
            Blocked.Start($"busy-http{i}", () =>
            {
                while (true)
                    _ = http.GetStringAsync($"http://{endpoint}/ok").Result;
            });
        for (int i = 0; i < 2; i++)
            Blocked.Start($"busy-socket{i}", () =>
            {
                var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
                socket.Connect(endpoint);
                byte[] reply = new byte[256];
                while (true)
                {
                    socket.Send("GET /ok HTTP/1.1\r\n\r\n"u8);
                    socket.Receive(reply);
                }
            });
        Thread.Sleep(2000);
    }

    /// <summary>Answers each read at once with a complete HTTP/1.1 response (keep-alive).</summary>
    private static void Answer(Socket client)
    {
        byte[] request = new byte[4096];
        byte[] response = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"u8.ToArray();
        while (client.Receive(request) > 0)
            client.Send(response);
    }

    private static int Arrived()
    {
        lock (Accepted)
            return Accepted.Count(s => s.Available > 0);
    }

    /// <summary>A listener that accepts and never answers, on a thread of its own (a sync Accept, which hang must not report).</summary>
    private static IPEndPoint Listen(string name)
    {
        var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        var endpoint = (IPEndPoint)listener.LocalEndpoint;
        Console.WriteLine($"remote {name} {endpoint}");
        Blocked.Start($"{name}-server", () =>
        {
            while (true)
            {
                Socket client = listener.AcceptSocket();
                lock (Accepted)
                    Accepted.Add(client);
            }
        });
        return endpoint;
    }
}
