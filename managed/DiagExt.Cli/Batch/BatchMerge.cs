using System.Text.Json;
using DiagExt.Cli.CommandLine;
using DiagExt.Core.Catalog;
using DiagExt.Core.Errors;
using DiagExt.Core.Reports;

namespace DiagExt.Cli.Batch;

/// <summary>
/// Puts the parts of a sharded batch together into the report one machine's batch over the same listing writes:
/// the listing and skipped files from the manifest every part carries, each dump's row from the part of its shard,
/// and the duplicate groups made again over all shards from the content hashes the shards read
/// (<see cref="DuplicateGrouper.ByContent"/>), the rows built as the batch builds them (<see cref="BatchResults"/>).
/// Refuses, with one line each, parts of different manifests, a shard given twice, and a missing shard (naming the
/// dumps it held).
/// </summary>
public static class BatchMerge
{
    /// <summary>How many of a missing shard's dumps the error line names before "and N more".</summary>
    private const int NamedDumps = 5;

    public static BatchReport Merge(IReadOnlyList<string> partFiles)
    {
        if (partFiles.Count == 0)
            throw new UsageException("merge needs the parts: the --json FILE of every 'diagext analyze --shard I/N'");
        var parts = partFiles.Select(f => (File: f, Report: Read(f))).ToList();

        var (firstFile, first) = parts[0];
        BatchPart shape = first.Part!;
        foreach (var (file, report) in parts.Skip(1))
        {
            BatchPart part = report.Part!;
            if (part.ManifestHash != shape.ManifestHash)
                throw new DiagExtException($"{file} and {firstFile} are parts of different batches (manifests {part.ManifestHash[..12]} and {shape.ManifestHash[..12]}): run every shard on one --manifest");
            if (part.Count != shape.Count)
                throw new DiagExtException($"{file} is shard {part.Index}/{part.Count} but {firstFile} is one of {shape.Count}: every shard must be given the same N");
        }
        foreach (var twice in parts.GroupBy(p => p.Report.Part!.Index).Where(g => g.Count() > 1))
            throw new DiagExtException($"shard {twice.Key}/{shape.Count} is given twice ({string.Join(" and ", twice.Select(p => p.File))}): give each shard's part once");

        BatchManifest manifest = BatchManifest.Parse(System.Text.Encoding.UTF8.GetBytes(shape.Manifest), firstFile);
        if (manifest.Hash != shape.ManifestHash)
            throw new DiagExtException($"{firstFile}: its manifest does not match its hash (the part was edited?)");
        int[] owner = ShardPlan.Assign(manifest.Dumps, shape.Count);
        var given = parts.Select(p => p.Report.Part!.Index).ToHashSet();
        for (int shard = 0; shard < shape.Count; shard++)
            if (!given.Contains(shard))
                throw new DiagExtException(Missing(shard, shape.Count, manifest.Dumps.Where((_, i) => owner[i] == shard).Select(d => d.Name).ToList()));

        var rows = new Dictionary<string, DumpResult>(StringComparer.Ordinal);
        foreach (var (file, report) in parts)
            foreach (DumpResult row in report.Dumps)
                if (!rows.TryAdd(row.Name, row))
                    throw new DiagExtException($"{file}: {row.Name} is in two parts: were the shards run on different listings?");

        var listing = new List<DumpCandidate>(manifest.Dumps.Count);
        for (int i = 0; i < manifest.Dumps.Count; i++)
        {
            DumpCandidate dump = manifest.Dumps[i];
            if (!rows.TryGetValue(dump.Name, out DumpResult? row))
                throw new DiagExtException($"{parts.First(p => p.Report.Part!.Index == owner[i]).File}: shard {owner[i]}/{shape.Count} has no row for {dump.Name}, which its manifest gives it");
            listing.Add(dump with { ContentHash = row.ContentHash });
        }

        IReadOnlyList<DumpGroup> groups = DuplicateGrouper.ByContent(listing);
        List<DumpResult> results = BatchResults.Of(listing, groups, group => Analysed(rows, group.Primary.Name));
        return new BatchReport(
            manifest.Inputs,
            results,
            manifest.Skipped,
            parts.Max(p => p.Report.Jobs),
            parts.Max(p => p.Report.Elapsed),
            parts.Any(p => p.Report.Cancelled));
    }

    /// <summary>
    /// The result a group's primary got. Its shard analysed it for itself: the primary is the group's first (plain)
    /// name, and the shard's own group of it, a part of this one, picks the same name.
    /// </summary>
    private static DumpResult Analysed(Dictionary<string, DumpResult> rows, string name)
    {
        DumpResult row = rows[name];
        return row.SameContentAs is { } original ? rows[original] : row;
    }

    private static string Missing(int shard, int count, IReadOnlyList<string> dumps)
    {
        string held = dumps.Count == 0
            ? "it held no dump"
            : $"it held {dumps.Count} dump{(dumps.Count == 1 ? "" : "s")}: {string.Join(", ", dumps.Take(NamedDumps))}{(dumps.Count > NamedDumps ? $" and {dumps.Count - NamedDumps} more" : "")}";
        return $"shard {shard}/{count} is missing ({held}): run that shard again ('diagext analyze ... --shard {shard}/{count} --json FILE') and merge with its part";
    }

    private static BatchReport Read(string file)
    {
        string text;
        try
        {
            text = File.ReadAllText(file);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw new DiagExtException($"{file}: cannot read the part: {e.Message}", e);
        }
        try
        {
            return BatchPartJson.Read(DetectorCatalog.Json, text);
        }
        catch (JsonException e)
        {
            throw new DiagExtException($"{file}: not a shard's part ({e.Message})", e);
        }
    }
}
