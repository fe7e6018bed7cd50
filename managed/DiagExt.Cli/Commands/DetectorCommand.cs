using DiagExt.Cli.CommandLine;
using DiagExt.Core.Analysis;
using DiagExt.Core.Errors;

namespace DiagExt.Cli.Commands;

/// <summary>"diagext &lt;detector&gt; &lt;dump&gt;": runs one detector. One instance per detector in the catalog.</summary>
public sealed class DetectorCommand(IDetector detector) : ICommand
{
    public string Name => detector.Name;

    public string Summary => detector.Description;

    public bool InDebugger => true;

    public string Usage => $"diagext {detector.Name} <dump> | --pid N [--dac PATH] [--format text|dml|json | --json] [--threads N]";

    public string Details => detector.Explanation;

    public IReadOnlyList<OptionSpec> Options => CommonOptions.Target;

    public ExitCode Execute(ParsedArguments arguments, CommandIo io) => DetectorRun.Execute(Name, [detector], arguments, io);
}
