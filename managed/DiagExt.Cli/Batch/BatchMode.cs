using DiagExt.Cli.CommandLine;
using DiagExt.Cli.Commands;
using DiagExt.Core.Targets;
using DiagExt.Core.Targets.Sources;

namespace DiagExt.Cli.Batch;

/// <summary>
/// Decides whether 'diagext analyze' reports on one target (its detailed report, as before) or runs a
/// batch (progress, summary table, report files). A batch: several inputs, a folder, a glob, a zip
/// without --entry, or any batch-only option (a report file, --jobs, --max-memory, --quiet).
/// </summary>
public static class BatchMode
{
    public static bool Applies(ParsedArguments arguments)
    {
        bool batchOptions = BatchOptions.All.Any(o => arguments.Has(o.Name)) || arguments.Value(CommonOptions.Json.Name) is not null and not "-";
        if (arguments.Has(CommonOptions.Pid.Name))
        {
            if (batchOptions)
                throw new UsageException("report files, --jobs, --max-memory and --quiet are for dumps; a live process gets the single-target report (--format, --json)");
            return false;
        }
        if (batchOptions || arguments.Positionals.Count > 1)
            return true;
        if (arguments.Positionals.Count == 0)
            return false;
        string input = arguments.Positionals[0];
        if (Directory.Exists(input))
            return true;
        if (!File.Exists(input))
            return GlobPattern.HasWildcards(input);
        return !arguments.Has(CommonOptions.Entry.Name) && IsZip(input);
    }

    private static bool IsZip(string path)
    {
        try
        {
            return DumpFormatProbe.Identify(path) == DumpFormat.Zip;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return false;
        }
    }
}
