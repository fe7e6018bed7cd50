using DiagExt.Cli.CommandLine;
using DiagExt.Core.Errors;

namespace DiagExt.Cli.Commands;

/// <summary>One diagext command: its name, help and options live beside the code that runs it.</summary>
public interface ICommand
{
    string Name { get; }

    /// <summary>One line for the command list.</summary>
    string Summary { get; }

    /// <summary>The synopsis, e.g. "diagext dictcycle &lt;dump&gt; | --pid N [options]".</summary>
    string Usage { get; }

    /// <summary>A paragraph or two for "diagext help &lt;command&gt;".</summary>
    string Details { get; }

    IReadOnlyList<OptionSpec> Options { get; }

    /// <summary>
    /// Whether the WinDbg extension runs it (the target is the debugger's): analyze, every detector, help.
    /// The export table, the .def file and the gallery manifest are generated from 'diagext help --list'.
    /// </summary>
    bool InDebugger => false;

    /// <summary>
    /// Whether the extension also exports it as !name. Not for a name another extension every WinDbg user has
    /// already owns (ext.dll's !analyze): such a command runs as "!diagext NAME", and analyze as plain "!diagext".
    /// </summary>
    bool OwnExport => InDebugger;

    ExitCode Execute(ParsedArguments arguments, CommandIo io);
}
