namespace DiagExt.Cli.Commands;

/// <summary>What a command writes to and listens to. Commands never touch Console directly, so tests capture them.</summary>
public sealed record CommandIo(TextWriter Out, TextWriter Error, CancellationToken Cancellation);
