using System.Collections.Concurrent;
using System.Net;
using System.Net.Sockets;
using System.Text;

namespace DiagExt.Tests.Symbols;

/// <summary>
/// A symbol server on 127.0.0.1 that the tests start and stop, speaking just enough HTTP/1.1 to behave like a
/// real one and like the broken ones a user meets. The first path segment chooses the behaviour:
/// /store/KEY serves files from a folder in the symbol-store layout (404 when absent); /garbage/KEY sends bytes
/// that are no DAC; /huge/KEY announces 1 GB; /endless/KEY streams without end and without a length;
/// /silent/KEY reads the request and never answers; /to-file/KEY redirects to a file: URL;
/// /redirect/KEY redirects to /store/KEY.
/// </summary>
public sealed class LoopbackSymbolServer : IDisposable
{
    private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
    private readonly string _store;
    private readonly CancellationTokenSource _stop = new();
    private readonly Task _accepting;

    public ConcurrentQueue<string> Requests { get; } = new();

    public LoopbackSymbolServer(string store)
    {
        _store = store;
        _listener.Start();
        _accepting = Task.Run(AcceptAsync);
    }

    public Uri Url(string behaviour) => new($"http://127.0.0.1:{((IPEndPoint)_listener.LocalEndpoint).Port}/{behaviour}/");

    private async Task AcceptAsync()
    {
        while (!_stop.IsCancellationRequested)
        {
            TcpClient client;
            try
            {
                client = await _listener.AcceptTcpClientAsync(_stop.Token);
            }
            catch (Exception e) when (e is OperationCanceledException or ObjectDisposedException or SocketException)
            {
                return;
            }
            _ = Task.Run(() => ServeAsync(client));
        }
    }

    private async Task ServeAsync(TcpClient client)
    {
        using (client)
        {
            try
            {
                NetworkStream stream = client.GetStream();
                string path = await ReadRequestPathAsync(stream);
                Requests.Enqueue(path);
                string[] parts = path.TrimStart('/').Split('/', 2);
                string behaviour = parts[0], key = parts.Length > 1 ? parts[1] : "";
                switch (behaviour)
                {
                    case "store":
                        string file = Path.Combine(_store, key);
                        if (key.Contains("..") || !File.Exists(file))
                            await HeadAsync(stream, "404 Not Found", 0);
                        else
                            await SendAsync(stream, "200 OK", await File.ReadAllBytesAsync(file));
                        break;
                    case "garbage":
                        await SendAsync(stream, "200 OK", Encoding.ASCII.GetBytes("<html><body>symbol server maintenance</body></html>"));
                        break;
                    case "huge":
                        await HeadAsync(stream, "200 OK", 1L << 30);
                        await stream.WriteAsync(new byte[4096], _stop.Token);
                        break;
                    case "endless":
                        await stream.WriteAsync(Encoding.ASCII.GetBytes("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n"), _stop.Token);
                        byte[] elf = new byte[1 << 20];
                        elf[0] = 0x7F; elf[1] = (byte)'E'; elf[2] = (byte)'L'; elf[3] = (byte)'F';
                        while (!_stop.IsCancellationRequested)
                            await stream.WriteAsync(elf, _stop.Token);
                        break;
                    case "silent":
                        await Task.Delay(Timeout.Infinite, _stop.Token);
                        break;
                    case "to-file":
                        await RedirectAsync(stream, "file:///etc/passwd");
                        break;
                    case "redirect":
                        await RedirectAsync(stream, "/store/" + key);
                        break;
                    default:
                        await HeadAsync(stream, "400 Bad Request", 0);
                        break;
                }
            }
            catch (Exception e) when (e is IOException or SocketException or OperationCanceledException or ObjectDisposedException)
            {
                // The client hung up (as diagext does past its size cap) or the server is stopping.
            }
        }
    }

    private static async Task<string> ReadRequestPathAsync(NetworkStream stream)
    {
        var head = new StringBuilder();
        byte[] one = new byte[1];
        while (head.Length < 8192 && !head.ToString().EndsWith("\r\n\r\n", StringComparison.Ordinal))
        {
            if (await stream.ReadAsync(one) == 0)
                break;
            head.Append((char)one[0]);
        }
        string[] requestLine = head.ToString().Split("\r\n")[0].Split(' ');
        return requestLine.Length >= 2 ? requestLine[1] : "";
    }

    private Task HeadAsync(NetworkStream stream, string status, long length) =>
        stream.WriteAsync(Encoding.ASCII.GetBytes($"HTTP/1.1 {status}\r\nContent-Length: {length}\r\nConnection: close\r\n\r\n"), _stop.Token).AsTask();

    private async Task SendAsync(NetworkStream stream, string status, byte[] body)
    {
        await HeadAsync(stream, status, body.Length);
        await stream.WriteAsync(body, _stop.Token);
    }

    private Task RedirectAsync(NetworkStream stream, string location) =>
        stream.WriteAsync(Encoding.ASCII.GetBytes($"HTTP/1.1 302 Found\r\nLocation: {location}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"), _stop.Token).AsTask();

    public void Dispose()
    {
        _stop.Cancel();
        _listener.Stop();
        try
        {
            _accepting.Wait(TimeSpan.FromSeconds(5));
        }
        catch (AggregateException)
        {
        }
        _stop.Dispose();
    }
}
