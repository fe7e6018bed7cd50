namespace DiagExt.Tests.Infrastructure;

/// <summary>
/// The Wine prefix the Windows fixtures run in: created once per test run under artifacts/ (about 20 s), with no
/// Mono/Gecko installer and no debug output. Only this prefix's wineserver is ever stopped: other people run Wine
/// on the same machine.
/// </summary>
public static class WinePrefix
{
    private static readonly object Gate = new();
    private static string? _created;

    public static string Path => System.IO.Path.Combine(Repo.Root, "artifacts", "wine-tests");

    public static Dictionary<string, string> Environment => new()
    {
        ["WINEPREFIX"] = Path,
        ["WINEDEBUG"] = "-all",
        ["WINEDLLOVERRIDES"] = "mscoree,mshtml=",
    };

    /// <summary>
    /// For .NET programs and Microsoft's debugger engine (the WinDbg extension tests). mscoree stays enabled:
    /// Wine's loader needs it to map IL-only images, and .NET loads every System.*.dll that way (with it
    /// disabled a self-contained .NET app fails: "Could not load file or assembly System.Runtime.dll").
    /// Microsoft's dbgeng/dbghelp must win over Wine's built-in stubs of the same names; winedbg is off so a
    /// crashing program ends instead of starting Wine's debugger. .NET's W^X double mapping of code pages is off:
    /// under Wine 8 it makes .NET 10 die in a finalizer ("Internal CLR error. (0x80131506)" in
    /// DynamicResolver+DestroyScout.Finalize): seen every time in diagext's 'analyze --threads 2' on a Windows dump,
    /// never in 3 runs with DOTNET_EnableWriteXorExecute=0. Windows itself needs no such setting.
    /// </summary>
    public static Dictionary<string, string> DotnetAndDebuggerEnvironment => new(Environment)
    {
        ["WINEDLLOVERRIDES"] = "mshtml=;dbgeng,dbghelp,dbgcore,dbgmodel=n,b;winedbg.exe=d",
        ["DOTNET_EnableWriteXorExecute"] = "0",
    };

    /// <summary>Runs a Windows program (.NET or the debugger engine) under Wine in this prefix.</summary>
    /// <param name="extra">More variables for the program (and what it starts), e.g. a test hook of diagext's.</param>
    public static ProcessRunner.Result Run(string exe, IEnumerable<string> arguments, TimeSpan timeout, IReadOnlyDictionary<string, string>? extra = null)
    {
        EnsureCreated();
        Dictionary<string, string> environment = DotnetAndDebuggerEnvironment;
        foreach (var (name, value) in extra ?? new Dictionary<string, string>())
            environment[name] = value;
        return ProcessRunner.Run("wine", new[] { exe }.Concat(arguments), timeout, environment: environment);
    }

    /// <summary>Runs Wine's reg.exe in this prefix ("add KEY /v NAME /d VALUE /f", "delete KEY /f").</summary>
    public static void Registry(IEnumerable<string> arguments)
    {
        ProcessRunner.Result result = Run("reg", arguments, TimeSpan.FromMinutes(1));
        if (result.ExitCode != 0)
            throw new InvalidOperationException($"reg {string.Join(' ', arguments)} failed ({result.ExitCode}):\n{result.Stdout}\n{result.Stderr}");
    }

    /// <summary>The Linux path of the Wine user's %LOCALAPPDATA% in this prefix.</summary>
    public static string LocalAppData => System.IO.Path.Combine(Path, "drive_c", "users", System.Environment.UserName, "AppData", "Local");

    /// <summary>Creates the prefix on first use in this test run (a prefix left by an earlier run is replaced).</summary>
    public static void EnsureCreated()
    {
        lock (Gate)
        {
            if (_created is not null)
                return;
            Stop();
            if (Directory.Exists(Path))
                Directory.Delete(Path, recursive: true);
            ProcessRunner.Result result = ProcessRunner.Run("wineboot", ["-i"], TimeSpan.FromMinutes(3), environment: Environment);
            if (result.ExitCode != 0 || !Directory.Exists(System.IO.Path.Combine(Path, "drive_c")))
                throw new InvalidOperationException($"wineboot -i failed ({result.ExitCode}):\n{result.Stdout}\n{result.Stderr}");
            _created = Path;
        }
    }

    /// <summary>
    /// Ends every process of this prefix (wineserver -k with WINEPREFIX set: never anyone else's) and waits until
    /// its wineserver is gone: a Wine program started while the old server is still exiting can hang.
    /// </summary>
    public static void Stop()
    {
        if (!Directory.Exists(Path))
            return;
        ProcessRunner.Run("wineserver", ["-k"], TimeSpan.FromMinutes(1), environment: Environment);
        ProcessRunner.Run("wineserver", ["-w"], TimeSpan.FromMinutes(1), environment: Environment);
    }

    /// <summary>
    /// Whether this Wine runs 32-bit programs: Debian's wine32:i386 package (the 32-bit loader /usr/lib/wine/wine).
    /// scripts/setup-windows-tools.sh does not install it; docs/commands/loaderlock.md explains why.
    /// </summary>
    public static bool Runs32BitPrograms => File.Exists("/usr/lib/wine/wine");

    /// <summary>The Windows path Wine maps a Linux path to (drive Z: is the Linux root).</summary>
    public static string WindowsPath(string linuxPath) => "Z:" + System.IO.Path.GetFullPath(linuxPath).Replace('/', '\\');
}
