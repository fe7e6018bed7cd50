using DiagExt.Core;
using DiagExt.Core.Catalog;
using DiagExt.Cli.CommandLine;
using DiagExt.Cli.Commands;
using DiagExt.Core.Targets;

namespace DiagExt.Cli.Batch;

/// <summary>A batch's options, checked.</summary>
public sealed record BatchSettings
{
    public required IReadOnlyList<string> Inputs { get; init; }

    public required int Jobs { get; init; }

    public required TimeSpan Timeout { get; init; }

    public required long MemoryBudget { get; init; }

    public string? DacPath { get; init; }

    /// <summary>The symbol options as the user gave them, checked here once and passed on to every worker.</summary>
    public IReadOnlyList<string> SymbolOptions { get; init; } = [];

    /// <summary>The detectors --skip leaves out, checked here once and passed on to every worker.</summary>
    public IReadOnlyList<string> Skip { get; init; } = [];

    /// <summary>"--json" alone: the batch document goes to stdout instead of the summary table.</summary>
    public bool JsonToStdout { get; init; }

    public string? JsonFile { get; init; }

    public string? MarkdownFile { get; init; }

    public string? HtmlFile { get; init; }

    public bool Quiet { get; init; }

    /// <summary>--shard I/N: this worker's share only, written as a part for 'diagext merge'.</summary>
    public Shard? Shard { get; init; }

    public string? WriteManifestFile { get; init; }

    public string? ManifestFile { get; init; }

    public Limits Limits { get; init; } = Limits.Default;

    public static BatchSettings From(ParsedArguments arguments)
    {
        if (arguments.Has(CommonOptions.Format.Name))
            throw new UsageException("--format is for one dump; a batch prints a summary table, or its JSON document with --json");
        string? manifest = NonEmpty(BatchOptions.Manifest.Name, arguments.Value(BatchOptions.Manifest.Name));
        string? writeManifest = NonEmpty(BatchOptions.WriteManifest.Name, arguments.Value(BatchOptions.WriteManifest.Name));
        if (manifest is not null && arguments.Positionals.Count > 0)
            throw new UsageException("--manifest lists the dumps: give it or the dumps, folders and globs, not both");
        if (manifest is null && arguments.Positionals.Count == 0)
            throw new UsageException("analyze needs dumps, folders or globs (or --manifest FILE)");
        if (writeManifest is not null && (manifest is not null || arguments.Has(BatchOptions.Shard.Name)))
            throw new UsageException("--write-manifest only lists the dumps; run the shards with --manifest and --shard afterwards");
        Shard? shard = arguments.Value(BatchOptions.Shard.Name) is { } text ? Batch.Shard.Parse(text) : null;
        int jobs = arguments.IntValue(BatchOptions.Jobs.Name) ?? Environment.ProcessorCount;
        if (jobs < 1)
            throw new UsageException("--jobs must be at least 1");
        string? json = arguments.Value(CommonOptions.Json.Name);
        return new BatchSettings
        {
            Inputs = arguments.Positionals,
            Jobs = jobs,
            Timeout = arguments.DurationValue(CommonOptions.Timeout.Name) ?? BatchOptions.DefaultTimeout,
            MemoryBudget = arguments.SizeValue(BatchOptions.MaxMemory.Name) ?? Batch.MemoryBudget.DefaultTotal(),
            DacPath = arguments.Value(CommonOptions.Dac.Name),
            SymbolOptions = CheckedSymbolOptions(arguments),
            Skip = SkipOption.Names(arguments, DetectorCatalog.CreateAll()),
            JsonToStdout = arguments.Has(CommonOptions.Json.Name) && json is null or "-",
            JsonFile = json is null or "-" ? null : NonEmpty(CommonOptions.Json.Name, json),
            MarkdownFile = NonEmpty(BatchOptions.Markdown.Name, arguments.Value(BatchOptions.Markdown.Name)),
            HtmlFile = NonEmpty(BatchOptions.Html.Name, arguments.Value(BatchOptions.Html.Name)),
            Quiet = arguments.Has(BatchOptions.Quiet.Name),
            Shard = shard,
            WriteManifestFile = writeManifest,
            ManifestFile = manifest,
        };
    }

    private static IReadOnlyList<string> CheckedSymbolOptions(ParsedArguments arguments)
    {
        _ = SymbolArguments.Resolve(arguments);
        _ = SymbolArguments.StallTimeout(arguments);
        return SymbolArguments.Forward(arguments).ToList();
    }

    private static string? NonEmpty(string option, string? value) =>
        value is "" ? throw new UsageException($"{option} needs a file name") : value;
}
