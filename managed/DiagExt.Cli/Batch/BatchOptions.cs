using DiagExt.Cli.CommandLine;

namespace DiagExt.Cli.Batch;

/// <summary>The options only 'diagext analyze' has: they make it a batch over many dumps.</summary>
public static class BatchOptions
{
    public static readonly OptionSpec Jobs = new("--jobs", "N", "dumps analysed at once (default: one per core, fewer when memory is short; see --max-memory)", ["-j"]);
    public static readonly OptionSpec Markdown = new("--markdown", "FILE", "also write the batch report as Markdown");
    public static readonly OptionSpec Html = new("--html", "FILE", "also write the batch report as one self-contained HTML page (sortable table, expandable findings)");
    public static readonly OptionSpec MaxMemory = new("--max-memory", "SIZE", "memory the analyses may use together, e.g. 4G (default: half of the memory available)");
    public static readonly OptionSpec Quiet = new("--quiet", null, "no progress on stderr", ["-q"]);

    public static readonly OptionSpec Shard = new("--shard", "I/N", "analyse only shard I of N (I from 0, as SLURM_ARRAY_TASK_ID and JOB_COMPLETION_INDEX count) and write that part with --json FILE, for 'diagext merge'");

    public static readonly OptionSpec WriteManifest = new("--write-manifest", "FILE", "list the dumps once into FILE and stop: pass it to every shard with --manifest so all split the same listing");

    public static readonly OptionSpec Manifest = new("--manifest", "FILE", "take the dumps from a manifest written by --write-manifest instead of listing the inputs again");

    public static IReadOnlyList<OptionSpec> All { get; } = [Jobs, Markdown, Html, MaxMemory, Quiet, Shard, WriteManifest, Manifest];

    /// <summary>The default per-dump timeout of a batch.</summary>
    public static readonly TimeSpan DefaultTimeout = TimeSpan.FromMinutes(10);
}
