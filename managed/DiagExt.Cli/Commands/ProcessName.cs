using DiagExt.Cli.CommandLine;
using DiagExt.Core.Targets.Live;

namespace DiagExt.Cli.Commands;

/// <summary>"-n NAME" is "--pid" of the one attachable .NET process so named: resolved once, before any command looks.</summary>
public static class ProcessName
{
    public static ParsedArguments Resolve(ParsedArguments arguments)
    {
        if (arguments.Value(CommonOptions.Name.Name) is not { } name)
            return arguments;
        if (arguments.Has(CommonOptions.Pid.Name))
            throw new UsageException("give --pid or --name, not both");
        if (name.Length == 0)
            throw new UsageException("--name needs a process name");
        return arguments.With(CommonOptions.Pid.Name, DotnetProcesses.ByName(name).ToString(System.Globalization.CultureInfo.InvariantCulture), arguments.Positionals);
    }
}
