using DiagExt.Core.Catalog;
using DiagExt.Cli.CommandLine;
using DiagExt.Core.Analysis;
using DiagExt.Core.Rendering;
using DiagExt.Core.Reports;

namespace DiagExt.Cli.Commands;

public enum OutputFormat
{
    Text,
    Dml,
    Json,
}

/// <summary>Picks and runs the renderer for --format / --json.</summary>
public static class OutputFormats
{
    /// <summary>The format asked for; with none, DML on a DML console (the WinDbg extension), else text.</summary>
    public static OutputFormat From(ParsedArguments arguments, CommandIo io)
    {
        string? format = arguments.Value(CommonOptions.Format.Name);
        if (arguments.Value(CommonOptions.Json.Name) is { } file)
            throw new UsageException($"--json {file}: a JSON file is a batch report of 'diagext analyze'; on one target --json prints to stdout");
        if (arguments.Has(CommonOptions.Json.Name))
        {
            if (format is not null and not "json")
                throw new UsageException($"--json conflicts with --format {format}");
            return OutputFormat.Json;
        }
        return format switch
        {
            null => io.DmlConsole ? OutputFormat.Dml : OutputFormat.Text,
            "text" => OutputFormat.Text,
            "dml" => OutputFormat.Dml,
            "json" => OutputFormat.Json,
            _ => throw new UsageException($"--format must be text, dml or json, not '{format}'"),
        };
    }

    /// <param name="verbose">--verbose: a failed detector's stack too (JSON: its "detail").</param>
    public static void Render(OutputFormat format, AnalysisReport report, CommandIo io, bool verbose)
    {
        switch (format)
        {
            case OutputFormat.Json:
                DetectorCatalog.Json.Write(verbose ? report : report.WithoutDetails(), io.Out);
                break;
            case OutputFormat.Dml:
                new ConsoleReportRenderer(new DmlStyle(managedTarget: report.Target?.Runtime.IsLoaded == true), verbose).Render(report, io.Markup);
                break;
            default:
                new ConsoleReportRenderer(new PlainStyle(), verbose).Render(report, io.Out);
                break;
        }
    }
}
