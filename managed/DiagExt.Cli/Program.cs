using System.Runtime.InteropServices;
using DiagExt.Cli;
using DiagExt.Cli.Batch;
using DiagExt.Cli.Commands;

// Ctrl+C and SIGTERM cancel the analysis; a live target is then let go by Dispose (and by the kernel if
// diagext dies: see LinuxThreadFreezer).
using var cancellation = new CancellationTokenSource();
Console.CancelKeyPress += (_, e) =>
{
    e.Cancel = true;
    cancellation.Cancel();
};
using PosixSignalRegistration sigterm = PosixSignalRegistration.Create(PosixSignal.SIGTERM, context =>
{
    context.Cancel = true;
    cancellation.Cancel();
});

// The last resort of --timeout, and of an analysis whose batch is gone: one line, exit code 2, now.
void Abort(string reason)
{
    Console.Error.WriteLine($"diagext: {reason}");
    Environment.Exit(2);
}

ParentWatch.StartIfWorker(Abort);
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
