namespace DiagExt.Cli.Batch;

/// <summary>
/// Splits a listing into shares balanced by size, not by count (one 8 GB dump must not land beside seven others),
/// from the listing alone, so workers that never talk agree: largest dump first onto the least-loaded shard (fewest
/// bytes, then fewest dumps, then lowest index), equal sizes in listing order. An input of unknown size (one that failed
/// already) weighs nothing: those go round the shards in listing order.
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
        IEnumerable<int> largestFirst = Enumerable.Range(0, listing.Count).Where(i => listing[i].Length is not null)
            .OrderByDescending(i => listing[i].Length).ThenBy(i => i);
        foreach (int i in largestFirst)
        {
            loads.TryDequeue(out int shard, out var load);
            owner[i] = shard;
            loads.Enqueue(shard, (load.Bytes + listing[i].Length!.Value, load.Dumps + 1, shard));
        }
        // Inputs of unknown size failed already (no analysis to balance): round the shards, so each part names a few.
        int next = 0;
        for (int i = 0; i < listing.Count; i++)
            if (listing[i].Length is null)
                owner[i] = next++ % count;
        return owner;
    }

    /// <summary>The dumps of one shard, in listing order.</summary>
    public static IReadOnlyList<DumpCandidate> Share(IReadOnlyList<DumpCandidate> listing, Shard shard)
    {
        int[] owner = Assign(listing, shard.Count);
        return listing.Where((_, i) => owner[i] == shard.Index).ToList();
    }
}
