using DiagExt.Cli.CommandLine;
using DiagExt.Core.Analysis;
using DiagExt.Core.Errors;
using DiagExt.Core.Targets;

namespace DiagExt.Cli.Commands;

/// <summary>The shared body of every analysing command: open the target, run the detectors, render, pick the exit code.</summary>
public static class DetectorRun
{
    public static ExitCode Execute(string command, IReadOnlyList<IDetector> detectors, ParsedArguments arguments, CommandIo io)
    {
        OutputFormat format = OutputFormats.From(arguments);
        using Target target = TargetArguments.Open(arguments, command, io.Cancellation);
        AnalysisReport report = Analyzer.Run(target, detectors, io.Cancellation);
        if (report.NothingRan)
        {
            // Nothing could be analysed (e.g. dictcycle on a dump without .NET): an input error, in one line.
            string reasons = string.Join("; ", report.Outcomes.Select(o => o.Reason).Distinct());
            throw new DiagExtException($"{target.DisplayName}: {reasons}");
        }
        OutputFormats.Render(format, report, io.Out);
        return report.HasFindings ? ExitCode.HazardsFound : ExitCode.NothingFound;
    }
}
