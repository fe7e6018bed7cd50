namespace DiagExt.Cli.Batch;

/// <summary>
/// Splits a listing into shares balanced by size, not by count (one 8 GB dump must not land beside seven others),
/// from the listing alone, so workers that never talk agree: largest dump first onto the least-loaded shard (fewest
/// bytes, then fewest dumps, then lowest index), equal sizes in listing order. A dump whose size is unknown (an input
/// that failed already) weighs nothing and is spread by count.
/// </summary>
public static class ShardPlan
{
    /// <summary>The shard (0..count-1) of each dump of <paramref name="listing"/>, by position.</summary>
    public static int[] Assign(IReadOnlyList<DumpCandidate> listing, int count)
    {
        var owner = new int[listing.Count];
        var loads = new PriorityQueue<int, (long Bytes, int Dumps, int Index)>();
        for (int shard = 0; shard < count; shard++)
            loads.Enqueue(shard, (0, 0, shard));
        IEnumerable<int> largestFirst = Enumerable.Range(0, listing.Count).OrderByDescending(i => listing[i].Length ?? 0).ThenBy(i => i);
        foreach (int i in largestFirst)
        {
            loads.TryDequeue(out int shard, out var load);
            owner[i] = shard;
            loads.Enqueue(shard, (load.Bytes + (listing[i].Length ?? 0), load.Dumps + 1, shard));
        }
        return owner;
    }

    /// <summary>The dumps of one shard, in listing order.</summary>
    public static IReadOnlyList<DumpCandidate> Share(IReadOnlyList<DumpCandidate> listing, Shard shard)
    {
        int[] owner = Assign(listing, shard.Count);
        return listing.Where((_, i) => owner[i] == shard.Index).ToList();
    }
}
