using DiagExt.Cli.Child;
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
    public static bool Applies(ParsedArguments arguments) =>
        arguments.IntValue(CommonOptions.Pid.Name) is null && !ChildDiagext.InChild;

    public static ExitCode Execute(string target, CommandIo io)
    {
        using ChildDiagext child = ChildDiagext.Start(io.CommandLine);
        // The child got the same command line: on a DML console its output is already DML.
        Task relay = RelayAsync(child.Output, io.Markup);
        // Ctrl+C reaches the child too when both share the terminal; SIGTERM to this process alone does not: it is killed.
        ChildExit exit = child.WaitAsync(io.Cancellation).GetAwaiter().GetResult();
        relay.GetAwaiter().GetResult();
        if (exit.Killed)
            throw new OperationCanceledException(io.Cancellation);
        if (exit.Documented)
        {
            io.Error.Write(exit.Errors);
            return (ExitCode)exit.Code;
        }
        throw new DiagExtException($"{target}: {exit.Crash(null)}");
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
