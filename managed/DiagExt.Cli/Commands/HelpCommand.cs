using DiagExt.Core;
using System.Text;
using DiagExt.Cli.CommandLine;
using DiagExt.Core.Errors;
using DiagExt.Core.Rendering;

namespace DiagExt.Cli.Commands;

/// <summary>"diagext help [command]": the command list, or one command's usage, options and explanation.</summary>
public sealed class HelpCommand(Func<IReadOnlyList<ICommand>> commands) : ICommand
{
    public string Name => "help";

    public string Summary => "show the commands, or one command's options";

    public string Usage => "diagext help [<command> | --list]";

    public bool InDebugger => true;

    public string Details =>
        "Without a command, lists every command. With one, shows its usage, options and what it does. With --list, one line " +
        "per command for scripts: its name, 'debugger' if the WinDbg extension has it as !name, 'diagext' if the extension " +
        "runs it only as !diagext name (analyze: plain !diagext, since !analyze is WinDbg's own), else 'cli', and its " +
        "one-line summary, separated by tabs. The extension's exports, its gallery manifest and the package's readme are " +
        "generated from this list.";

    public static readonly OptionSpec List = new("--list", null, "one line per command: name, debugger|diagext|cli, summary (tab-separated)");

    public IReadOnlyList<OptionSpec> Options => [List, CommonOptions.Help];

    public ExitCode Execute(ParsedArguments arguments, CommandIo io)
    {
        if (arguments.Has(List.Name))
        {
            if (arguments.Positionals.Count > 0)
                throw new UsageException("--list lists every command: it takes no command name");
            foreach (ICommand c in commands())
                io.Out.WriteLine($"{c.Name}\t{ListKind(c)}\t{c.Summary}");
            return ExitCode.NothingFound;
        }
        if (arguments.Positionals.Count == 0)
        {
            io.Out.Write(Overview(commands()));
            return ExitCode.NothingFound;
        }
        string name = arguments.Positionals[0];
        ICommand command = commands().FirstOrDefault(c => c.Name == name) ?? throw CommandCatalog.Unknown(name);
        io.Out.Write(For(command));
        return ExitCode.NothingFound;
    }

    /// <summary>"debugger": the extension exports !name; "diagext": it runs only as "!diagext name"; "cli": not in the extension.</summary>
    public static string ListKind(ICommand command) => !command.InDebugger ? "cli" : command.OwnExport ? "debugger" : "diagext";

    private const string ExitCodes = ExitCodeText.Summary;

    public static string Overview(IReadOnlyList<ICommand> commands)
    {
        var sb = new StringBuilder();
        sb.AppendLine($"diagext {ToolVersion.Current}: names the cause of a hung .NET process from a dump or a live process.");
        sb.AppendLine();
        sb.AppendLine("usage: diagext <command> <dump> | --pid N [options]");
        sb.AppendLine();
        sb.AppendLine("commands:");
        int width = commands.Max(c => c.Name.Length);
        foreach (ICommand c in commands)
            sb.AppendLine($"  {c.Name.PadRight(width)}  {c.Summary}");
        sb.AppendLine();
        sb.AppendLine(ExitCodes);
        sb.AppendLine("'diagext help <command>' shows a command's options.");
        return sb.ToString();
    }

    public static string For(ICommand command)
    {
        var sb = new StringBuilder();
        sb.AppendLine($"usage: {command.Usage}");
        sb.AppendLine();
        sb.AppendLine(command.Details);
        if (command.Options.Count > 0)
        {
            sb.AppendLine();
            sb.AppendLine("options:");
            int width = command.Options.Max(o => Label(o).Length);
            foreach (OptionSpec o in command.Options)
                sb.AppendLine($"  {Label(o).PadRight(width)}  {o.Help}");
        }
        sb.AppendLine();
        sb.AppendLine(ExitCodes);
        return sb.ToString();
    }

    /// <summary>Help text escaped line by line for DML (it shows placeholders such as &lt;dump&gt;).</summary>
    public static string AsDml(string text) =>
        string.Concat(text.Split('\n').Select((line, i) => (i > 0 ? "\n" : "") + DmlEscaper.Escape(line.TrimEnd('\r'))));

    private static string Label(OptionSpec o) => o.Aliases is null ? o.Usage : $"{string.Join(", ", o.Aliases)}, {o.Usage}";
}
