using System.Runtime.InteropServices;
using DiagExt.Cli;
using DiagExt.Cli.Child;
using DiagExt.Cli.Commands;

// Ctrl+C and SIGTERM cancel the analysis; a live target is then let go by Dispose (and by the kernel if
// diagext dies: see LinuxThreadFreezer). A DAC call cannot be cancelled (a corrupt core kept one busy for
// over 15 minutes), so if the analysis has not stopped a grace period later the process ends as --timeout's does.
using var cancellation = new CancellationTokenSource();
Timer? backstop = null;
void Cancel()
{
    cancellation.Cancel();
    backstop ??= new Timer(_ => Abort($"cancelled, and the analysis did not stop within {Deadline.Grace.TotalSeconds:0}s"), null, Deadline.Grace, Timeout.InfiniteTimeSpan);
}
Console.CancelKeyPress += (_, e) =>
{
    e.Cancel = true;
    Cancel();
};
using PosixSignalRegistration sigterm = PosixSignalRegistration.Create(PosixSignal.SIGTERM, context =>
{
    context.Cancel = true;
    Cancel();
});

// The last resort of --timeout, and of an analysis whose batch is gone: one line, exit code 2, now.
void Abort(string reason)
{
    Console.Error.WriteLine($"diagext: {reason}");
    Environment.Exit(2);
}

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
return CommandLineApp.Run(args, new CommandIo(PipeAwareWriter.For(Console.Out, Console.IsOutputRedirected, Console.OpenStandardOutput),
    PipeAwareWriter.For(Console.Error, Console.IsErrorRedirected, Console.OpenStandardError), cancellation.Token, terminal, width, Abort));
