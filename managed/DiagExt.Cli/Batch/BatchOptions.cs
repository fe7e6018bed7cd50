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

    public static IReadOnlyList<OptionSpec> All { get; } = [Jobs, Markdown, Html, MaxMemory, Quiet];

    /// <summary>The default per-dump timeout of a batch.</summary>
    public static readonly TimeSpan DefaultTimeout = TimeSpan.FromMinutes(10);
}
