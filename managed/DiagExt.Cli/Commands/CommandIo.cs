namespace DiagExt.Cli.Commands;

/// <summary>What a command writes to and listens to. Commands never touch Console directly, so tests capture them.</summary>
/// <param name="ErrorIsTerminal">stderr is a terminal: progress may redraw one live line.</param>
/// <param name="TerminalWidth">Columns of that terminal.</param>
/// <param name="Abort">
/// Ends the process at once with one line on stderr: the last resort when a timeout expires and the
/// analysis is stuck in a call that cannot be cancelled. Null in-process (tests), where only cancellation applies.
/// </param>
public sealed record CommandIo(TextWriter Out, TextWriter Error, CancellationToken Cancellation, bool ErrorIsTerminal = false, int TerminalWidth = 80, Action<string>? Abort = null)
{
    /// <summary>The whole command line as given, so a command can run itself again in a child process (<see cref="IsolatedRun"/>).</summary>
    public IReadOnlyList<string> CommandLine { get; init; } = [];

    /// <summary>stdout is a DML console (<see cref="DmlConsoleWriter"/>): reports default to DML, text is escaped.</summary>
    public bool DmlConsole => Out is DmlConsoleWriter;

    /// <summary>Where output already rendered as DML goes: the console itself, past the escaping of text.</summary>
    public TextWriter Markup => Out is DmlConsoleWriter console ? console.Markup : Out;
}
