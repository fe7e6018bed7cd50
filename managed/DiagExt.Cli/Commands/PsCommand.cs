using DiagExt.Cli.CommandLine;
using DiagExt.Core.Errors;
using DiagExt.Core.Rendering;
using DiagExt.Core.Targets.Live;

namespace DiagExt.Cli.Commands;

/// <summary>"diagext ps": the .NET processes this user can attach to, as dotnet-dump ps lists them.</summary>
public sealed class PsCommand : ICommand
{
    public string Name => "ps";

    public string Summary => "list the .NET processes this user can attach to (for --pid or --name)";

    public string Usage => "diagext ps";

    public string Details =>
        "Lists the .NET (Core 3.0 and later) processes that publish a diagnostic endpoint, as dotnet-dump ps does, less " +
        "those of other users that diagext could not attach to: process id, name (what --name matches) and command line.";

    public IReadOnlyList<OptionSpec> Options => [CommonOptions.Help];

    public ExitCode Execute(ParsedArguments arguments, CommandIo io)
    {
        if (arguments.Positionals.Count > 0)
            throw new UsageException("ps takes no arguments");
        IReadOnlyList<DotnetProcess> processes = DotnetProcesses.Attachable();
        if (processes.Count == 0)
        {
            io.Error.WriteLine("diagext: no .NET process that this user can attach to");
            return ExitCode.NothingFound;
        }
        int nameWidth = Math.Min(24, processes.Max(p => p.Name.Length));
        foreach (DotnetProcess p in processes)
            io.Out.WriteLine($"{p.Pid,8}  {TextSanitizer.Sanitize(p.Name).PadRight(nameWidth)}  {TextSanitizer.Sanitize(p.CommandLine)}");
        return ExitCode.NothingFound;
    }
}
