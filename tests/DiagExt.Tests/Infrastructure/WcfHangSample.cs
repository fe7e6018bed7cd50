using System.Text.RegularExpressions;

namespace DiagExt.Tests.Infrastructure;

/// <summary>
/// samples/WcfHang on this machine: its net.tcp server and a client in one mode, started, the client dumped with
/// createdump. The ground truth comes from the programs themselves: the client prints the managed thread that
/// called Commit, the server every request's Action and MessageId.
/// </summary>
public static class WcfHangSample
{
    /// <summary>A dump of a client and what both programs said before it was taken.</summary>
    public sealed record ClientDump(string Path, string ClientOutput, string ServerOutput)
    {
        /// <summary>The managed thread that called Commit (hang modes), from "hung: ... (managed thread N) ...".</summary>
        public int? CommitThread => Regex.Match(ClientOutput, @"\(managed thread (\d+)\)") is { Success: true } m ? int.Parse(m.Groups[1].Value) : null;

        /// <summary>The MessageId of the Commit request the server saw from this client.</summary>
        public string? CommitMessageId => Regex.Match(ServerOutput, @"^request \S+/Commit (\S+)$", RegexOptions.Multiline) is { Success: true } m ? m.Groups[1].Value : null;
    }

    /// <summary>The server and one client, alive; disposing ends both.</summary>
    public sealed class Running(SampleProcess server, SampleProcess client) : IDisposable
    {
        public SampleProcess Server { get; } = server;

        public SampleProcess Client { get; } = client;

        public void Dispose()
        {
            Client.Dispose();
            Server.Dispose();
        }
    }

    private static readonly Dictionary<string, ClientDump> Cache = new();

    /// <summary>The sample's net.tcp server on 127.0.0.1, ready, and the port it listens on.</summary>
    public static SampleProcess StartServer(out string port)
    {
        SampleProcess server = SampleProcess.StartAndWaitReady(SampleBuilder.Build("WcfHang"), ["server"], TimeSpan.FromMinutes(1));
        port = Regex.Match(server.Output, @"^PORT (\d+)", RegexOptions.Multiline).Groups[1].Value;
        return server;
    }

    /// <summary>Starts a server of its own and a client in <paramref name="mode"/> (apm, fromasync, seed, fixed).</summary>
    public static Running Start(string mode, bool detachedClient = false)
    {
        string exe = SampleBuilder.Build("WcfHang");
        SampleProcess server = StartServer(out string port);
        try
        {
            SampleProcess client = SampleProcess.StartAndWaitReady(exe, ["client", port, mode], TimeSpan.FromMinutes(1), detached: detachedClient);
            return new Running(server, client);
        }
        catch
        {
            server.Dispose();
            throw;
        }
    }

    /// <summary>A dump of a client in <paramref name="mode"/>, made once per test run (again if <see cref="DumpShelf"/> deleted it).</summary>
    public static ClientDump Dump(string mode)
    {
        lock (Cache)
        {
            if (Cache.TryGetValue(mode, out ClientDump? cached) && DumpShelf.StillThere(cached.Path))
                return cached;
            using Running running = Start(mode);
            string path = DumpMaker.Dump(running.Client.Pid, $"wcfhang-{mode}.core");
            var dump = new ClientDump(path, running.Client.Output, running.Server.Output);
            Cache[mode] = dump;
            return dump;
        }
    }
}
