using DiagExt.Cli.Batch;
using DiagExt.Cli.CommandLine;
using DiagExt.Core.Catalog;
using DiagExt.Core.Errors;
using DiagExt.Core.Rendering.Batch;
using DiagExt.Core.Reports;

namespace DiagExt.Cli.Commands;

/// <summary>
/// "diagext merge": the parts of a batch run as shards on many machines ('analyze --shard I/N --json FILE'), put
/// together into the report one machine would have written (<see cref="BatchMerge"/>): the summary table, or its JSON,
/// and the same report files.
/// </summary>
public sealed class MergeCommand : ICommand
{
    public string Name => "merge";

    public string Summary => "put the parts of a sharded batch (analyze --shard I/N --json FILE) together into one batch report";

    public string Usage => "diagext merge <part.json>... [--json [FILE]] [--markdown FILE] [--html FILE]";

    public string Details =>
        "Reads the part every shard of a batch wrote ('diagext analyze --manifest FILE --shard I/N --json PART.json', " +
        "or the same inputs instead of a manifest) and writes the report a single 'diagext analyze' over the whole " +
        "listing writes, timings aside: the same rows in the same order, totals, duplicate groups across shards, " +
        "per-detector columns and failures. A dump that was gone when its shard ran is that dump's failure. " +
        "Refuses, with one line and exit code 2, parts of different manifests, a shard given twice, and a missing shard " +
        "(naming the dumps it held: run that shard alone again and merge). Output as for a batch: the summary table on " +
        "stdout, or with --json alone the batch JSON document; report files with --json FILE, --markdown, --html. " +
        "Exit code as the batch's: 2 if no dump could be analysed, else 1 if any hazard was found, else 3 if a detector " +
        "failed on some dump, else 0. See docs/batch.md.";

    public IReadOnlyList<OptionSpec> Options { get; } = [CommonOptions.Json, BatchOptions.Markdown, BatchOptions.Html, CommonOptions.Help];

    public ExitCode Execute(ParsedArguments arguments, CommandIo io)
    {
        string? json = arguments.Value(CommonOptions.Json.Name);
        bool jsonToStdout = arguments.Has(CommonOptions.Json.Name) && json is null or "-";
        string? jsonFile = json is null or "-" ? null : json;
        string? markdown = arguments.Value(BatchOptions.Markdown.Name);
        string? html = arguments.Value(BatchOptions.Html.Name);
        var parts = new HashSet<string>(arguments.Positionals.Select(Path.GetFullPath), StringComparer.Ordinal);
        foreach (string? file in new[] { jsonFile, markdown, html })
        {
            if (file is "")
                throw new UsageException("a report option needs a file name");
            if (file is not null && parts.Contains(Path.GetFullPath(file)))
                throw new UsageException($"{file} is one of the parts: the report would overwrite it (put the parts first, or write --json=FILE)");
        }

        BatchReport report = BatchMerge.Merge(arguments.Positionals);
        BatchRun.WriteReports(report, jsonFile, markdown, html);
        if (jsonToStdout)
        {
            io.Out.Write(new BatchJsonRenderer(DetectorCatalog.Json).RenderToString(report));
        }
        else
        {
            BatchTextRenderer.Render(report, io.Out);
            foreach (string? file in new[] { jsonFile, markdown, html })
                if (file is not null)
                    io.Out.WriteLine($"wrote {file}");
        }
        return report.ExitCode;
    }
}
