using System.Numerics;
using System.Runtime.CompilerServices;

namespace DiagExt.Core.Detectors.DictCycle;

/// <summary>
/// The duplicate-key candidates of a table <see cref="ChainProof"/> has proven sound, without walking its chains:
/// there a chain is exactly the live entries whose hash codes map to its bucket, so two entries of one chain with
/// equal hash codes are two live entries with equal hash codes. Bitmap passes keep the entries whose hash code may
/// occur twice, a few percent, which are then sorted. Pairs come out in the careful walk's order (bucket, then hash
/// code, then index), so reports do not depend on which path ran. Each round's bitmap is split into groups that fit in
/// cache, so the cost per entry stays flat as tables grow. The pairs are cut where the careful walk cuts them (at
/// <see cref="DuplicateKeyCandidates.MaxPerChain"/> a bucket, at <see cref="DuplicateKeyCandidates.MaxPairs"/> a table),
/// so a hostile table of equal hash codes costs at most those pairs, not a square of its entries nor a second walk.
/// </summary>
internal static class EqualHashGroups
{
    /// <summary>Filter rounds after the first: each uses another multiplier on the survivors only.</summary>
    private const int ExtraRounds = 2;

    private static readonly uint[] Multipliers = [0x9E3779B1u, 0x85EBCA77u, 0xC2B2AE3Du];

    /// <summary>Slot bits of one group's bitmap: seen and seen-twice words together 64 KB, which stays in a core's L2 cache.</summary>
    private const int GroupSlotBits = 18;

    /// <summary>At most 2^10 groups: each round scatters its keys into that many streams.</summary>
    private const int MaxGroupBits = 10;

    /// <summary>Adds the candidate pairs: the careful walk's, cut where it cuts them.</summary>
    /// <param name="groupSlotBits">Slot bits per group (tests make it small, to split the small tables of a test dump into many groups).</param>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)] // runs once per table, millions of iterations: skip tier-0 code
    public static void Collect(HashTableImage t, int n, DuplicateKeyCandidates pairs, int groupSlotBits = GroupSlotBits)
    {
        int[] nexts = t.Nexts, hashes = t.HashCodes;
        HashTableLayout layout = t.Layout;
        // One bitmap for the whole table outgrows the cache in a big table, and then each mark is a cache miss (bench/
        // RESULTS.md: 34 ns an entry at 0.5 M entries, 219 ns at 5 M). So every round first groups its keys by the top
        // bits of their slots (a counting pass, then a scatter into one array), and each group is filtered with a
        // bitmap of its own that stays in cache. Equal slots land in one group, so the survivors are the same.
        int bits = BitsFor(n, 4);
        int groupBits = GroupBitsFor(bits, groupSlotBits);
        uint multiplier = Multipliers[0];
        var starts = new int[(1 << groupBits) + 1];
        for (int i = 0; i < n; i++)
        {
            if (!layout.IsFree(hashes[i], nexts[i]))
                starts[(Slot(hashes[i], bits, multiplier) >> (bits - groupBits)) + 1]++;
        }
        int[] fill = StartsOf(starts);
        // (hash code << 32 | index) of each live entry: the careful walk's sort key within a chain.
        var keys = new long[starts[^1]];
        for (int i = 0; i < n; i++)
        {
            int hash = hashes[i];
            if (!layout.IsFree(hash, nexts[i]))
                keys[fill[Slot(hash, bits, multiplier) >> (bits - groupBits)]++] = ((long)hash << 32) | (uint)i;
        }
        int count = KeepShared(keys, starts, bits, groupBits, multiplier);
        for (int round = 1; round <= ExtraRounds && count > 1; round++)
        {
            multiplier = Multipliers[round];
            bits = BitsFor(count, 4);
            groupBits = GroupBitsFor(bits, groupSlotBits);
            starts = new int[(1 << groupBits) + 1];
            for (int k = 0; k < count; k++)
                starts[(Slot((int)(keys[k] >> 32), bits, multiplier) >> (bits - groupBits)) + 1]++;
            fill = StartsOf(starts);
            var grouped = new long[count];
            for (int k = 0; k < count; k++)
                grouped[fill[Slot((int)(keys[k] >> 32), bits, multiplier) >> (bits - groupBits)]++] = keys[k];
            keys = grouped;
            count = KeepShared(keys, starts, bits, groupBits, multiplier);
        }
        if (count < 2)
            return;
        RadixSort.Sort(keys.AsSpan(0, count));
        Emit(keys.AsSpan(0, count), new FastModulo((uint)t.Buckets.Length), pairs);
    }

    private static int GroupBitsFor(int bits, int groupSlotBits) => Math.Clamp(bits - Math.Max(groupSlotBits, 6), 0, MaxGroupBits);

    /// <summary>Turns counts (at index group + 1) into each group's start, in place; returns a copy to fill from.</summary>
    private static int[] StartsOf(int[] starts)
    {
        for (int g = 1; g < starts.Length; g++)
            starts[g] += starts[g - 1];
        return starts[..^1];
    }

    /// <summary>Keeps the keys whose slot another key of their group shares, moved to the front; returns how many.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private static int KeepShared(long[] keys, int[] starts, int bits, int groupBits, uint multiplier)
    {
        int localBits = bits - groupBits;
        uint mask = (1u << localBits) - 1;
        var map = new ulong[2 << Math.Max(localBits - 6, 0)];
        int kept = 0;
        for (int g = 0; g + 1 < starts.Length; g++)
        {
            int from = starts[g], to = starts[g + 1];
            if (to - from < 2)
                continue;
            Array.Clear(map);
            for (int k = from; k < to; k++)
                Mark(map, Slot((int)(keys[k] >> 32), bits, multiplier) & mask);
            for (int k = from; k < to; k++)
                if (SeenTwice(map, Slot((int)(keys[k] >> 32), bits, multiplier) & mask))
                    keys[kept++] = keys[k];
        }
        return kept;
    }

    /// <summary>Marks a slot seen, or seen twice when it was seen before. Seen and seen-twice words sit side by side: one cache line per slot.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)] // per entry, twice per round: Native AOT left these as calls
    private static void Mark(ulong[] map, uint slot)
    {
        ref ulong seen = ref map[(slot >> 6) << 1];
        ulong bit = 1UL << (int)slot;
        map[((slot >> 6) << 1) + 1] |= seen & bit;
        seen |= bit;
    }

    /// <summary>
    /// Every pair of each run of one hash code, runs ordered by bucket then hash code; as the careful walk does
    /// (<see cref="DuplicateKeyCandidates.AddChain"/>), a bucket's pairs stop at its limit and the next bucket's follow,
    /// and all stop at the table's: work bounded by the pairs kept, whatever the runs' lengths.
    /// </summary>
    private static void Emit(ReadOnlySpan<long> sorted, FastModulo bucketOf, DuplicateKeyCandidates pairs)
    {
        var runs = new List<(uint Bucket, int Start, int Length)>();
        for (int start = 0; start < sorted.Length;)
        {
            int end = start + 1;
            while (end < sorted.Length && sorted[end] >> 32 == sorted[start] >> 32)
                end++;
            if (end - start > 1)
                runs.Add((bucketOf.Remainder((uint)(sorted[start] >> 32)), start, end - start));
            start = end;
        }
        runs.Sort(); // by bucket; within one by start, i.e. by hash code

        uint full = uint.MaxValue; // the bucket whose limit was reached: its later runs are skipped
        uint bucket = uint.MaxValue;
        int inChain = 0;
        foreach (var (b, start, length) in runs)
        {
            if (b == full)
                continue;
            if (b != bucket)
                (bucket, inChain) = (b, 0);
            for (int x = start; x < start + length && b != full; x++)
                for (int y = x + 1; y < start + length; y++)
                {
                    if (++inChain > DuplicateKeyCandidates.MaxPerChain)
                    {
                        full = b;
                        break;
                    }
                    if (!pairs.Add((int)sorted[x], (int)sorted[y], (int)b))
                        return;
                }
        }
    }

    private static int BitsFor(int count, int extraBits) => Math.Clamp(BitOperations.Log2((uint)Math.Max(count, 1)) + extraBits, 10, 28);

    [MethodImpl(MethodImplOptions.AggressiveInlining)] // per entry, twice per round: Native AOT left these as calls
    private static bool SeenTwice(ulong[] map, uint slot) => (map[((slot >> 6) << 1) + 1] & (1UL << (int)slot)) != 0;

    /// <summary>A bitmap slot for a hash code; multiplied first, as small integer keys hash to themselves.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)] // per entry, twice per round: Native AOT left these as calls
    private static uint Slot(int hash, int bits, uint multiplier) => ((uint)hash * multiplier) >> (32 - bits);
}
