using DiagExt.Core.Catalog;
using DiagExt.Cli.CommandLine;
using DiagExt.Core.Analysis;

namespace DiagExt.Cli.Commands;

/// <summary>Every command of diagext: analyze, attach, one per detector, then watch, ps, merge, help and version.</summary>
public static class CommandCatalog
{
    public static IReadOnlyList<ICommand> All { get; } = Create();

    public static ICommand? Find(string name) => All.FirstOrDefault(c => c.Name == name);

    /// <summary>The one answer to a name that is no command, whether typed alone or after 'help'.</summary>
    public static UsageException Unknown(string name) =>
        new($"unknown command '{name}'{Suggestion.For(name, All.Select(c => c.Name))}");

    private static IReadOnlyList<ICommand> Create()
    {
        var commands = new List<ICommand> { new AnalyzeCommand(), new AttachCommand() };
        commands.AddRange(DetectorCatalog.CreateAll().Select(d => d is IFileScan scan ? (ICommand)new FileScanCommand(d, scan) : new DetectorCommand(d)));
        commands.Add(new WatchCommand());
        commands.Add(new PsCommand());
        commands.Add(new MergeCommand());
        commands.Add(new HelpCommand(() => All));
        commands.Add(new VersionCommand());
        return commands;
    }
}
