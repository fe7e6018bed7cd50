using DiagExt.Core.Reports;

namespace DiagExt.Cli.Batch;

/// <summary>
/// One result per dump name, in listing order, a copy given its group's result under its own name: how a batch turns
/// its analyses into rows, and how merge turns the shards' rows into the same ones.
/// </summary>
public static class BatchResults
{
    /// <param name="primaryResult">The result of a group's <see cref="DumpGroup.Primary"/>, analysed for itself.</param>
    public static List<DumpResult> Of(IReadOnlyList<DumpCandidate> listing, IReadOnlyList<DumpGroup> groups, Func<DumpGroup, DumpResult> primaryResult)
    {
        var byName = new Dictionary<string, DumpResult>(StringComparer.Ordinal);
        foreach (DumpGroup group in groups)
        {
            DumpResult primary = primaryResult(group) with { Name = group.Primary.Name, SameContentAs = null, ContentHash = group.Primary.ContentHash };
            byName[primary.Name] = primary;
            foreach (DumpCandidate copy in group.Copies)
                byName[copy.Name] = primary with { Name = copy.Name, SameContentAs = primary.Name, Elapsed = TimeSpan.Zero, PeakMemoryBytes = null, SizeBytes = copy.Length, ContentHash = copy.ContentHash };
        }
        return listing.Select(c => byName[c.Name]).ToList();
    }
}
