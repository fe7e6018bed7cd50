using System.Runtime.InteropServices;
using DiagExt.Cli;
using DiagExt.Cli.Child;
using DiagExt.Cli.Commands;
using DiagExt.Core.Errors;

// Ctrl+C and SIGTERM cancel the analysis; a live target is then let go by Dispose (and by the kernel if
// diagext dies: see LinuxThreadFreezer). A DAC call cannot be cancelled (a corrupt core kept one busy for
// over 15 minutes), so if the analysis has not stopped a grace period later the process ends as --timeout's does.
// A cancelled run ends with 130 (Ctrl+C) or 143 (SIGTERM) whatever the command was doing, as shells and
// service managers expect of a process stopped by that signal: cancelled is not a usage error.
using var cancellation = new CancellationTokenSource();
ExitCode cancelledWith = ExitCode.Cancelled;
Timer? backstop = null;
void Cancel(ExitCode code)
{
    if (!cancellation.IsCancellationRequested)
        cancelledWith = code;
    cancellation.Cancel();
    backstop ??= new Timer(_ => End($"cancelled, and the analysis did not stop within {Deadline.Grace.TotalSeconds:0}s", cancelledWith), null, Deadline.Grace, Timeout.InfiniteTimeSpan);
}
Console.CancelKeyPress += (_, e) =>
{
    e.Cancel = true;
    Cancel(ExitCode.Cancelled);
};
using PosixSignalRegistration sigterm = PosixSignalRegistration.Create(PosixSignal.SIGTERM, context =>
{
    context.Cancel = true;
    Cancel(ExitCode.Terminated);
});

void End(string reason, ExitCode code)
{
    Console.Error.WriteLine($"diagext: {reason}");
    Environment.Exit((int)code);
}

// The last resort of --timeout, and of an analysis whose batch is gone: one line, exit code 2, now.
void Abort(string reason) => End(reason, ExitCode.InputError);

ParentWatch.StartIfChild(Abort);
bool terminal = !Console.IsErrorRedirected;
int width = 80;
try
{
    if (terminal && Console.WindowWidth > 0)
        width = Console.WindowWidth;
}
catch (IOException)
{
}
int exitCode = CommandLineApp.Run(args, new CommandIo(PipeAwareWriter.For(Console.Out, Console.IsOutputRedirected, Console.OpenStandardOutput),
    PipeAwareWriter.For(Console.Error, Console.IsErrorRedirected, Console.OpenStandardError), cancellation.Token, terminal, width, Abort));
return cancellation.IsCancellationRequested ? (int)cancelledWith : exitCode;
