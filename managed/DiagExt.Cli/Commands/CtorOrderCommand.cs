using DiagExt.Cli.CommandLine;
using DiagExt.Core.Analysis;
using DiagExt.Core.Detectors.CtorOrder;
using DiagExt.Core.Errors;
using DiagExt.Core.Reports;

namespace DiagExt.Cli.Commands;

/// <summary>
/// "diagext ctororder": in a dump or live process (the detector, as analyze runs it), or statically over
/// assembly files and NuGet packages with --assembly, for CI.
/// </summary>
public sealed class CtorOrderCommand(IDetector detector) : ICommand
{
    public static readonly OptionSpec Assembly = new("--assembly", "PATTERN",
        "scan assembly files instead of a process: a .dll/.exe, a .nupkg, a folder, or a glob (bin/**/*.dll); more paths may follow");

    public string Name => detector.Name;

    public string Summary => detector.Description;

    public string Usage => $"diagext {Name} <dump> | --pid N | --assembly PATTERN [PATTERN...] [--format text|dml|json | --json]";

    public string Details => detector.Explanation + Environment.NewLine + Environment.NewLine +
        "With --assembly no process is involved: every call site found is reported as a warning, since only a process shows whether a type's " +
        "constructor order differs. Exit code 1 when any call site is found (warnings count: this is the check to run in CI before a runtime " +
        "update), 0 when none, 2 when a path matches nothing. Unreadable or malformed assemblies are named in one note line and do not stop the scan.";

    public IReadOnlyList<OptionSpec> Options { get; } = [Assembly, .. CommonOptions.Target];

    public ExitCode Execute(ParsedArguments arguments, CommandIo io)
    {
        if (arguments.Value(Assembly.Name) is not { } first)
            return DetectorRun.Execute(Name, [detector], arguments, io);
        if (arguments.Has(CommonOptions.Pid.Name) || arguments.Has(CommonOptions.Dac.Name))
            throw new UsageException("--assembly scans files: it takes no --pid or --dac");
        OutputFormat format = OutputFormats.From(arguments, io);
        AnalysisReport report = StaticCtorOrderScan.Run([first, .. arguments.Positionals], io.Cancellation);
        OutputFormats.Render(format, report, io);
        return report.HasFindings ? ExitCode.HazardsFound : ExitCode.NothingFound;
    }
}
