using System.Runtime.InteropServices;
using DiagExt.Cli;
using DiagExt.Cli.Commands;

// Ctrl+C and SIGTERM cancel the analysis; a live target is then detached and resumed by Dispose.
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

return CommandLineApp.Run(args, new CommandIo(Console.Out, Console.Error, cancellation.Token));
