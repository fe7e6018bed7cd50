// Npgsql 10.0.3 (from NuGet, unmodified) opening connections to "PostgreSQL servers" that accept and never answer: two
// loopback listeners of this process. What diagext must say is in GROUND-TRUTH.md, written before it was run on it.
//
//   stuck   127.0.0.1:P1, Timeout=0 (no connect timeout): thread "open" in NpgsqlConnection.Open(), thread "open-async"
//           in OpenAsync().GetAwaiter().GetResult()
//   timed   127.0.0.1:P2, Timeout=100: thread "open-timed" in NpgsqlConnection.Open()
//
// Prints "remote NAME 127.0.0.1:PORT" and "thread NAME managed ID holds nothing waits NAME", then READY once every
// connection's first bytes have reached its listener (the client has written and now reads).

using System.Net;
using System.Net.Sockets;
using Npgsql;

var accepted = new List<Socket>();
IPEndPoint stuck = Listen("stuck");
IPEndPoint timed = Listen("timed");
string Connection(IPEndPoint server, int timeout) =>
    $"Host=127.0.0.1;Port={server.Port};Username=app;Password=secret;Database=orders;Timeout={timeout};Pooling=false";

var threads = new List<Thread>
{
    Start("open", "stuck", () => new NpgsqlConnection(Connection(stuck, 0)).Open()),
    Start("open-async", "stuck", () => new NpgsqlConnection(Connection(stuck, 0)).OpenAsync().GetAwaiter().GetResult()),
    Start("open-timed", "timed", () => new NpgsqlConnection(Connection(timed, 100)).Open()),
};
for (int i = 0; i < 600 && Arrived() < threads.Count; i++)
    Thread.Sleep(50);
if (Arrived() < threads.Count)
{
    Console.Error.WriteLine($"only {Arrived()} of {threads.Count} connections reached the servers");
    return 1;
}
Thread.Sleep(500); // each client is in its read by now
Console.WriteLine($"READY {Environment.ProcessId}");
Thread.Sleep(Timeout.Infinite);
return 0;

int Arrived()
{
    lock (accepted)
        return accepted.Count(s => s.Available > 0);
}

Thread Start(string name, string server, Action open)
{
    var thread = new Thread(() =>
    {
        Console.WriteLine($"thread {name} managed {Environment.CurrentManagedThreadId} holds nothing waits {server}");
        try
        {
            open();
        }
        catch (Exception e)
        {
            Console.WriteLine($"thread {name} failed: {e.GetType().Name}: {e.Message}");
        }
    }) { IsBackground = true, Name = name };
    thread.Start();
    return thread;
}

IPEndPoint Listen(string name)
{
    var listener = new TcpListener(IPAddress.Loopback, 0);
    listener.Start();
    var endpoint = (IPEndPoint)listener.LocalEndpoint;
    Console.WriteLine($"remote {name} {endpoint}");
    new Thread(() =>
    {
        while (true)
        {
            Socket client = listener.AcceptSocket();
            lock (accepted)
                accepted.Add(client);
        }
    }) { IsBackground = true, Name = $"{name}-server" }.Start();
    return endpoint;
}
