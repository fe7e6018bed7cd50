using System.Net;
using System.Net.Sockets;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.RealPrograms;

/// <summary>
/// Microsoft Garnet, a Redis-compatible cache server written in .NET, installed as a dotnet tool from NuGet and run
/// with its defaults, bound to 127.0.0.1 on a free port. No persistence is enabled (no --aof, --storage-tier or
/// checkpoints); its working folder is under artifacts/ anyway. Stopped (killed) on Dispose.
/// </summary>
public sealed class GarnetServer : IDisposable
{
    /// <summary>The newest version the NuGet mirror here serves; it targets net10.0, so it runs on the installed runtime.</summary>
    public const string Version = "2.2.8";

    private static readonly object InstallLock = new();
    private readonly SampleProcess _process;

    private GarnetServer(SampleProcess process, int port)
    {
        _process = process;
        Port = port;
    }

    public int Port { get; }

    public int Pid => _process.Pid;

    /// <summary>What the server printed (its banner, warnings).</summary>
    public string Output => _process.Output;

    public static string WorkDirectory => Path.Combine(Repo.WorkDirectory, "realprograms");

    public static GarnetServer Start()
    {
        string server = Install();
        int port = FreeLoopbackPort();
        string folder = Path.Combine(WorkDirectory, "garnet");
        Directory.CreateDirectory(folder);
        // Detached (see SampleProcess): the tests attach to it in-process. Garnet prints no "READY <pid>" line, so a
        // shell starts it and prints that line itself once the server answers PING, then waits on it.
        const string script = """
            cd "$GARNET_FOLDER" || exit 1
            "$0" "$@" &
            pid=$!
            i=0
            while [ $i -lt 600 ]; do
                kill -0 $pid 2>/dev/null || { echo "garnet-server exited"; exit 1; }
                [ "$(redis-cli -h 127.0.0.1 -p "$GARNET_PORT" ping 2>/dev/null)" = PONG ] && { echo "READY $pid"; wait $pid; exit; }
                sleep 0.1
                i=$((i + 1))
            done
            echo "garnet-server did not answer PING"
            """;
        SampleProcess process = SampleProcess.StartAndWaitReady("/bin/sh",
            ["-c", script, server, "--bind", "127.0.0.1", "--port", port.ToString()],
            TimeSpan.FromMinutes(1),
            new Dictionary<string, string> { ["GARNET_FOLDER"] = folder, ["GARNET_PORT"] = port.ToString() },
            detached: true);
        return new GarnetServer(process, port);
    }

    /// <summary>Runs redis-cli against the server and returns what it printed.</summary>
    public string Cli(params string[] command)
    {
        ProcessRunner.Result result = ProcessRunner.Run("redis-cli", ["-h", "127.0.0.1", "-p", Port.ToString(), .. command], TimeSpan.FromSeconds(30));
        Assert.That(result.ExitCode, Is.EqualTo(0), $"redis-cli {string.Join(' ', command)}: {result.Stdout}{result.Stderr}");
        return result.Stdout.Trim();
    }

    public void Dispose() => _process.Dispose();

    /// <summary>Installs the tool once under artifacts/ (a dotnet tool install from NuGet, a few seconds).</summary>
    private static string Install()
    {
        Assert.That(File.Exists("/usr/bin/redis-benchmark") && File.Exists("/usr/bin/redis-cli"), Is.True,
            "redis-benchmark and redis-cli (Debian's redis-tools) are missing: run scripts/setup.sh (scripts/setup-realprograms.sh)");
        lock (InstallLock)
        {
            string tools = Path.Combine(WorkDirectory, "tools");
            string server = Path.Combine(tools, "garnet-server");
            if (File.Exists(server))
                return server;
            ProcessRunner.Result result = ProcessRunner.Run("dotnet", ["tool", "install", "garnet-server", "--version", Version, "--tool-path", tools], TimeSpan.FromMinutes(5));
            Assert.That(result.ExitCode, Is.EqualTo(0), $"dotnet tool install garnet-server {Version} failed (is NuGet reachable?):\n{result.Stdout}\n{result.Stderr}");
            return server;
        }
    }

    /// <summary>A port the kernel just handed out for 127.0.0.1; released at once for the server to take.</summary>
    private static int FreeLoopbackPort()
    {
        var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        int port = ((IPEndPoint)listener.LocalEndpoint).Port;
        listener.Stop();
        return port;
    }
}
