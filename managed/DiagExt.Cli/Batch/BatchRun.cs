using DiagExt.Core.Catalog;
using System.Diagnostics;
using DiagExt.Cli.CommandLine;
using DiagExt.Cli.Commands;
using DiagExt.Core.Analysis;
using DiagExt.Core.Errors;
using DiagExt.Core.Rendering.Batch;
using DiagExt.Core.Reports;
using DiagExt.Core.Targets;

namespace DiagExt.Cli.Batch;

/// <summary>
/// 'diagext analyze' over many dumps: find them, drop duplicate content, analyse the rest in parallel
/// (each in its own process), then print the summary table (or the JSON document) and write the reports.
/// </summary>
public static class BatchRun
{
    public static ExitCode Execute(ParsedArguments arguments, CommandIo io, TimeProvider? clock = null)
    {
        BatchSettings settings = BatchSettings.From(arguments);
        var wall = Stopwatch.StartNew();
        ProgressMode mode = settings.Quiet ? ProgressMode.Quiet : io.ErrorIsTerminal ? ProgressMode.Bar : ProgressMode.Lines;
        var progress = new BatchProgress(io.Error, mode, clock ?? TimeProvider.System, io.TerminalWidth);

        BatchManifest? manifest = settings.ManifestFile is { } manifestFile ? BatchManifest.Read(manifestFile) : null;
        if (manifest is null)
        {
            var discovery = new DumpDiscovery(settings.Limits);
            foreach (string input in settings.Inputs)
                discovery.Add(input, io.Cancellation);
            if (discovery.Dumps.Count == 0)
                throw new DiagExtException($"no dump found in {string.Join(", ", settings.Inputs)}" + (discovery.Skipped.Count > 0 ? $" ({discovery.Skipped.Count} files that are not dumps)" : ""));
            manifest = BatchManifest.From(settings.Inputs, discovery);
        }
        if (settings.WriteManifestFile is { } written)
        {
            manifest.Write(written);
            io.Out.WriteLine($"wrote {written} ({manifest.Dumps.Count} dumps, {manifest.Skipped.Count} skipped files; manifest {manifest.Hash[..12]})");
            return ExitCode.NothingFound;
        }
        IReadOnlyList<DumpCandidate> listing = manifest.Dumps;
        CheckReportPaths(settings, listing);
        IReadOnlyList<DumpCandidate> share = listing;
        if (settings.Shard is { } shard)
        {
            share = ShardPlan.Share(listing, shard);
            progress.Message($"shard {shard}: {share.Count} of {listing.Count} dumps ({Megabytes(share):N0} of {Megabytes(listing):N0} MB; manifest {manifest.Hash[..12]})");
        }

        IReadOnlyList<DumpGroup> groups = DuplicateGrouper.Group(share, progress.Message, io.Cancellation, listing);
        progress.Message($"analysing {groups.Count} dump{(groups.Count == 1 ? "" : "s")} ({settings.Jobs} at a time, {settings.MemoryBudget / (1024 * 1024):N0} MB memory budget, {settings.Timeout.TotalSeconds:0} s timeout each)");
        progress.Begin(groups.Count);
        IReadOnlyDictionary<DumpGroup, WorkerOutcome> outcomes = BatchScheduler.RunAsync(groups, settings, progress, io.Cancellation).GetAwaiter().GetResult();
        progress.End();

        List<DumpResult> results = Results(share, groups, outcomes);
        var report = new BatchReport(manifest.Inputs, results, manifest.Skipped, settings.Jobs, wall.Elapsed, io.Cancellation.IsCancellationRequested)
        {
            Part = settings.Shard is { } part ? new BatchPart(part.Index, part.Count, manifest.Hash, manifest.Text) : null,
            Series = SeriesGrouper.Find(results, DetectorCatalog.CreateAll(), FileTimes(share)),
        };
        WriteReports(report, settings.JsonFile, settings.MarkdownFile, settings.HtmlFile);
        if (settings.JsonToStdout)
        {
            io.Out.Write(new BatchJsonRenderer(DetectorCatalog.Json).RenderToString(report));
        }
        else
        {
            // One dump named on its own ('analyze a.core --html r.html') shows the report it would show without the
            // report file, not a one-row table: asking for a file must not change what the terminal says.
            if (OneNamedDump(settings, report) is { } single)
                OutputFormats.Render(OutputFormat.Text, single, io, arguments.Has(CommonOptions.Verbose.Name));
            else
                BatchTextRenderer.Render(report, io.Out);
            foreach (string? file in new[] { settings.JsonFile, settings.MarkdownFile, settings.HtmlFile })
                if (file is not null)
                    io.Out.WriteLine($"wrote {file}");
        }
        if (report.Cancelled)
            io.Error.WriteLine("diagext: cancelled; the reports cover the dumps analysed until then");
        return report.ExitCode;
    }

    /// <summary>The report of the one dump file the command line named, when that is all the batch was; else null.</summary>
    private static AnalysisReport? OneNamedDump(BatchSettings settings, BatchReport report) =>
        settings.Inputs.Count == 1 && File.Exists(settings.Inputs[0]) && report.Dumps.Count == 1 && report.Dumps[0].Report is { } single
            ? single
            : null;

    private static List<DumpResult> Results(IReadOnlyList<DumpCandidate> found, IReadOnlyList<DumpGroup> groups, IReadOnlyDictionary<DumpGroup, WorkerOutcome> outcomes) =>
        BatchResults.Of(found, groups, group =>
        {
            WorkerOutcome outcome = outcomes[group];
            return new DumpResult
            {
                Name = group.Primary.Name,
                Status = outcome.Status,
                Error = outcome.Error,
                Report = outcome.Report,
                SizeBytes = group.Primary.Length,
                Elapsed = outcome.Elapsed,
                PeakMemoryBytes = outcome.PeakMemoryBytes,
            };
        });

    /// <summary>The modification time of each dump that is a plain file (a packed one's is its archive's, no time of the dump).</summary>
    private static Func<string, DateTime?> FileTimes(IReadOnlyList<DumpCandidate> dumps)
    {
        var paths = dumps.Where(d => !d.Source.IsPacked).ToDictionary(d => d.Name, d => d.Source.Path, StringComparer.Ordinal);
        return name => paths.TryGetValue(name, out string? path) && File.Exists(path) ? File.GetLastWriteTimeUtc(path) : null;
    }

    private static long Megabytes(IEnumerable<DumpCandidate> dumps) => dumps.Sum(d => d.Length ?? 0) / (1024 * 1024);

    /// <summary>The report files asked for (--json FILE, --markdown, --html): a batch's, and merge's.</summary>
    internal static void WriteReports(BatchReport report, string? jsonFile, string? markdownFile, string? htmlFile)
    {
        if (jsonFile is { } json)
            Write(json, stream => new BatchJsonRenderer(DetectorCatalog.Json).Render(report, stream));
        if (markdownFile is { } markdown)
            Write(markdown, stream => { using var w = new StreamWriter(stream); BatchMarkdownRenderer.Render(report, w); });
        if (htmlFile is { } html)
            Write(html, stream => { using var w = new StreamWriter(stream); BatchHtmlRenderer.Render(report, w, DetectorCatalog.Json); });
    }

    /// <summary>Writes beside the target and renames, so a reader never sees half a report.</summary>
    private static void Write(string path, Action<Stream> render)
    {
        string temp = path + ".tmp";
        try
        {
            using (var stream = new FileStream(temp, FileMode.Create, FileAccess.Write))
                render(stream);
            File.Move(temp, path, overwrite: true);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            File.Delete(temp);
            throw new DiagExtException($"{path}: cannot write the report: {e.Message}", e);
        }
    }

    private static void CheckReportPaths(BatchSettings settings, IReadOnlyList<DumpCandidate> dumps)
    {
        var inputs = new HashSet<string>(dumps.Select(d => Path.GetFullPath(d.Source.Path)), StringComparer.Ordinal);
        foreach (string? file in new[] { settings.JsonFile, settings.MarkdownFile, settings.HtmlFile })
            if (file is not null && inputs.Contains(Path.GetFullPath(file)))
                throw new UsageException($"{file} is one of the dumps: a report would overwrite it");
    }
}
