using DiagExt.Cli.CommandLine;
using DiagExt.Core.Analysis;
using DiagExt.Core.Errors;
using DiagExt.Core.Reports;

namespace DiagExt.Cli.Commands;

/// <summary>
/// The command of a detector that can also scan files (<see cref="IFileScan"/>, e.g. "diagext ctororder"): in a dump or
/// live process (the detector, as analyze runs it), or statically over assembly files and NuGet packages with
/// --assembly, for CI.
/// </summary>
public sealed class FileScanCommand(IDetector detector, IFileScan scan) : ICommand
{
    public static readonly OptionSpec Assembly = new("--assembly", "PATTERN",
        "scan assembly files instead of a process: a .dll/.exe, a .nupkg, a folder, or a glob (bin/**/*.dll); more paths may follow");

    public static readonly OptionSpec Baseline = new("--baseline", "FILE",
        "with --assembly: do not report the sites listed in FILE (reviewed; written by --write-baseline)");

    public static readonly OptionSpec WriteBaseline = new("--write-baseline", "FILE",
        "with --assembly: write every site found to FILE (assembly, method and pattern: no IL offset, so it survives rebuilds) and exit 0");

    public string Name => detector.Name;

    public string Summary => detector.Description;

    public bool InDebugger => true;

    public string Usage => $"diagext {Name} <dump> | --pid N | --assembly PATTERN [PATTERN...] [--baseline FILE | --write-baseline FILE] [--format text|dml|json | --json]";

    public string Details => detector.Explanation + Environment.NewLine + Environment.NewLine + scan.FileScanExplanation +
        Environment.NewLine + Environment.NewLine + $"{Assembly.Name} scans files; {WriteBaseline.Name} FILE records every site found, {Baseline.Name} FILE leaves those out.";

    public IReadOnlyList<OptionSpec> Options { get; } = [Assembly, Baseline, WriteBaseline, .. CommonOptions.Target];

    public ExitCode Execute(ParsedArguments arguments, CommandIo io)
    {
        if (arguments.Value(Assembly.Name) is not { } first)
        {
            if (arguments.Has(Baseline.Name) || arguments.Has(WriteBaseline.Name))
                throw new UsageException("--baseline and --write-baseline go with --assembly (a dump or process honours the attribute only)");
            return DetectorRun.Execute(Name, [detector], arguments, io);
        }
        if (arguments.Has(CommonOptions.Pid.Name) || arguments.Has(CommonOptions.Dac.Name))
            throw new UsageException("--assembly scans files: it takes no --pid or --dac");
        OutputFormat format = OutputFormats.From(arguments, io);
        if (arguments.Has(Baseline.Name) && arguments.Has(WriteBaseline.Name))
            throw new UsageException("--baseline and --write-baseline: one at a time (write a new baseline, or check against one)");
        var baseline = new FileScanBaseline(arguments.Value(Baseline.Name), arguments.Value(WriteBaseline.Name));
        AnalysisReport report = scan.ScanFiles([first, .. arguments.Positionals], baseline, io.Cancellation);
        OutputFormats.Render(format, report, io, arguments.Has(CommonOptions.Verbose.Name));
        // Writing a baseline records what is there: the run did its job.
        return baseline.Write is null ? report.ExitCode : ExitCode.NothingFound;
    }
}
