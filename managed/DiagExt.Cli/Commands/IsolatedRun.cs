using System.Diagnostics;
using System.Globalization;
using System.Text;
using DiagExt.Cli.Batch;
using DiagExt.Cli.CommandLine;
using DiagExt.Core.Errors;

namespace DiagExt.Cli.Commands;

/// <summary>
/// A dump is analysed in a child diagext, as a batch analyses each of its dumps: a damaged dump can make the DAC
/// fault (SIGSEGV), make ClrMD abort the process from a callback, or overflow the stack on a type that is its own
/// parent (all three found by fuzzing: tests/Fuzz/README.md), and no catch stops those. The child's output is
/// relayed as it comes; its death becomes one line and exit code 2. Live targets stay in this process: their
/// suspension is bound to it (ptrace) and must end with it. Price: about 0.2-0.5 s to start a second runtime.
/// </summary>
public static class IsolatedRun
{
    /// <summary>Set in the child (and in a batch's workers): analyse in-process.</summary>
    private const string ChildVariable = "DIAGEXT_ISOLATED";

    public static bool Applies(ParsedArguments arguments) =>
        arguments.IntValue(CommonOptions.Pid.Name) is null
        && Environment.GetEnvironmentVariable(ChildVariable) != "1"
        && Environment.GetEnvironmentVariable(WorkerProcess.ParentVariable) is null;

    public static ExitCode Execute(string target, CommandIo io)
    {
        (string fileName, IReadOnlyList<string> args) = WorkerLauncher.Command(io.CommandLine);
        var info = new ProcessStartInfo(fileName)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            StandardOutputEncoding = new UTF8Encoding(false),
            StandardErrorEncoding = new UTF8Encoding(false),
        };
        foreach (string a in args)
            info.ArgumentList.Add(a);
        info.Environment[ChildVariable] = "1";
        // The child ends itself if this process is killed (ParentWatch), instead of analysing on for nobody.
        info.Environment[WorkerProcess.ParentVariable] = Environment.ProcessId.ToString(CultureInfo.InvariantCulture);
        using Process child = Process.Start(info) ?? throw new DiagExtException($"{target}: cannot start {fileName}");
        Task relay = RelayAsync(child.StandardOutput, io.Out);
        Task<string> errors = child.StandardError.ReadToEndAsync(CancellationToken.None);
        try
        {
            child.WaitForExitAsync(io.Cancellation).GetAwaiter().GetResult();
        }
        catch (OperationCanceledException)
        {
            // Ctrl+C reaches the child too when both share the terminal; SIGTERM to this process alone does not.
            child.Kill(entireProcessTree: true);
            child.WaitForExit();
            throw;
        }
        relay.GetAwaiter().GetResult();
        string stderr = errors.GetAwaiter().GetResult();
        if (child.ExitCode is (int)ExitCode.NothingFound or (int)ExitCode.HazardsFound or (int)ExitCode.InputError or (int)ExitCode.Cancelled or (int)ExitCode.Terminated)
        {
            io.Error.Write(stderr);
            return (ExitCode)child.ExitCode;
        }
        throw new DiagExtException($"{target}: {ChildCrash.Describe(child.ExitCode, stderr, null)}");
    }

    /// <summary>Copies the child's report as it is written, so a debugger extension shows it line by line.</summary>
    private static async Task RelayAsync(StreamReader from, TextWriter to)
    {
        char[] buffer = new char[16 * 1024];
        int read;
        while ((read = await from.ReadAsync(buffer.AsMemory(), CancellationToken.None).ConfigureAwait(false)) > 0)
        {
            to.Write(buffer, 0, read);
            to.Flush();
        }
    }
}
