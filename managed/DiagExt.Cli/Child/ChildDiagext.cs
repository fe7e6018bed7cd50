using System.ComponentModel;
using System.Diagnostics;
using System.Globalization;
using System.Reflection;
using System.Text;
using DiagExt.Core.Errors;

namespace DiagExt.Cli.Child;

/// <summary>
/// One diagext started by this one: for a single dump analysed in isolation (<see cref="Commands.IsolatedRun"/>)
/// and for each dump of a batch (<see cref="Batch.WorkerProcess"/>). It owns how the child is started (the apphost
/// beside diagext.dll, or the running dotnet host with diagext.dll for a 'dotnet tool' install or the test host),
/// the parent-pid protocol, the wait, the kill, and the reading of how it ended.
/// </summary>
public sealed class ChildDiagext : IDisposable
{
    /// <summary>Set in every child: the parent's pid. The child analyses in-process and ends itself when the parent is gone.</summary>
    private const string ParentVariable = "DIAGEXT_PARENT_PID";

    /// <summary>Set by tests that want the analysis in-process without a parent (to see the crash itself).</summary>
    private const string InProcessVariable = "DIAGEXT_ISOLATED";

    private static readonly UTF8Encoding Utf8 = new(false);

    private readonly Process _process;
    private readonly Task<string> _errors;

    private ChildDiagext(Process process)
    {
        _process = process;
        _errors = process.StandardError.ReadToEndAsync(CancellationToken.None);
    }

    /// <summary>True in a child diagext (or with DIAGEXT_ISOLATED=1): analyse here, start no further child.</summary>
    public static bool InChild =>
        Environment.GetEnvironmentVariable(ParentVariable) is not null || Environment.GetEnvironmentVariable(InProcessVariable) == "1";

    /// <summary>The pid of the diagext that started this one, when it is a child.</summary>
    public static int? ParentId =>
        int.TryParse(Environment.GetEnvironmentVariable(ParentVariable), NumberStyles.None, CultureInfo.InvariantCulture, out int pid) && pid > 0 ? pid : null;

    public int Id => _process.Id;

    /// <summary>What it prints: its report. Read it (to the end, or as it comes) before <see cref="WaitAsync"/> returns.</summary>
    public StreamReader Output => _process.StandardOutput;

    /// <summary>Starts <c>diagext ARGUMENTS</c> with the parent-pid protocol and any extra environment.</summary>
    public static ChildDiagext Start(IEnumerable<string> arguments, IReadOnlyDictionary<string, string>? environment = null)
    {
        (string fileName, IReadOnlyList<string> args) = Command(arguments);
        var info = new ProcessStartInfo(fileName)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            StandardOutputEncoding = Utf8,
            StandardErrorEncoding = Utf8,
        };
        foreach (string a in args)
            info.ArgumentList.Add(a);
        info.Environment[ParentVariable] = Environment.ProcessId.ToString(CultureInfo.InvariantCulture);
        foreach (var (name, value) in environment ?? new Dictionary<string, string>())
            info.Environment[name] = value;
        try
        {
            return new ChildDiagext(Process.Start(info) ?? throw new DiagExtException($"cannot start {fileName}"));
        }
        catch (Win32Exception e)
        {
            throw new DiagExtException($"cannot start {fileName}: {e.Message}", e);
        }
    }

    /// <summary>Waits until it ends; if <paramref name="stop"/> fires first, kills it (its whole tree) and waits for that.</summary>
    public async Task<ChildExit> WaitAsync(CancellationToken stop)
    {
        bool killed = false;
        try
        {
            await _process.WaitForExitAsync(stop).ConfigureAwait(false);
        }
        catch (OperationCanceledException)
        {
            killed = true;
            Kill();
            await _process.WaitForExitAsync(CancellationToken.None).ConfigureAwait(false);
        }
        string errors = await _errors.ConfigureAwait(false);
        return new ChildExit(_process.ExitCode, errors, killed);
    }

    public void Dispose()
    {
        Kill(); // a no-op once it has exited; never leave one analysing for nobody
        _process.Dispose();
    }

    private void Kill()
    {
        try
        {
            _process.Kill(entireProcessTree: true);
        }
        catch (InvalidOperationException)
        {
            // Already gone.
        }
    }

    private static (string FileName, IReadOnlyList<string> Arguments) Command(IEnumerable<string> arguments)
    {
        // This process is diagext's own executable (the native one or the apphost), perhaps renamed or copied away from
        // its folder: start it again as it is. Looking only for a file named diagext beside it sent a renamed native
        // executable to 'dotnet diagext.dll', which does not exist (every analysis failed).
        string? self = Environment.ProcessPath;
        if (self is not null && Path.GetFileNameWithoutExtension(self) != "dotnet" && Assembly.GetEntryAssembly()?.GetName().Name == "diagext")
            return (self, arguments.ToList());
        // Otherwise a host runs diagext.dll: the dotnet host ('dotnet tool' installs, dotnet diagext.dll) or the test host.
        string folder = AppContext.BaseDirectory;
        string apphost = Path.Combine(folder, OperatingSystem.IsWindows() ? "diagext.exe" : "diagext");
        if (File.Exists(apphost))
            return (apphost, arguments.ToList());
        string dll = Path.Combine(folder, "diagext.dll");
        string? host = Environment.ProcessPath;
        string hostName = Path.GetFileNameWithoutExtension(host ?? "");
        return (hostName == "dotnet" ? host! : "dotnet", arguments.Prepend(dll).ToList());
    }
}
