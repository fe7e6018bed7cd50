using DiagExt.Cli.CommandLine;
using DiagExt.Core.Targets;

namespace DiagExt.Cli.Commands;

/// <summary>Turns "&lt;dump&gt;" or "--pid N" (plus --dac) into an opened target.</summary>
public static class TargetArguments
{
    public static Target Open(ParsedArguments arguments, string command, CancellationToken cancellation)
    {
        int? pid = arguments.IntValue(CommonOptions.Pid.Name);
        var options = new TargetOptions { DacPath = arguments.Value(CommonOptions.Dac.Name) };
        if (pid is not null)
        {
            if (arguments.Positionals.Count > 0)
                throw new UsageException($"give a dump or --pid, not both");
            return TargetOpener.Attach(pid.Value, options, cancellation);
        }
        return arguments.Positionals.Count switch
        {
            0 => throw new UsageException($"{command} needs a dump file or --pid N"),
            1 => TargetOpener.OpenDump(arguments.Positionals[0], options),
            _ => throw new UsageException($"{command} takes one dump; use 'diagext analyze' for several"),
        };
    }
}
