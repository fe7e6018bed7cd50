using DiagExt.Cli.CommandLine;
using DiagExt.Core.Analysis;
using DiagExt.Core.Errors;

namespace DiagExt.Cli.Commands;

/// <summary>"diagext analyze &lt;dump&gt;": every detector DiagExt has, one heap pass shared by all.</summary>
public sealed class AnalyzeCommand : ICommand
{
    public string Name => "analyze";

    public string Summary => "run every detector on a dump or a live process";

    public string Usage => "diagext analyze <dump> | --pid N [--dac PATH] [--format text|dml|json | --json]";

    public string Details =>
        "Runs every detector that applies to the target, with one pass over the heap shared by all of them. " +
        "Detectors that need something the target lacks (a .NET runtime, a Windows minidump) are listed as skipped.";

    public IReadOnlyList<OptionSpec> Options => CommonOptions.Target;

    public ExitCode Execute(ParsedArguments arguments, CommandIo io) => DetectorRun.Execute(Name, DetectorCatalog.CreateAll(), arguments, io);
}
