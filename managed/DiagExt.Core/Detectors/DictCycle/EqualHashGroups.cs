using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using DiagExt.Core.Heap;

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

    /// <summary>The slot bits per group a table is filtered with outside tests.</summary>
    public const int DefaultGroupSlotBits = GroupSlotBits;

    /// <summary>At most 2^10 groups: each round scatters its keys into that many streams.</summary>
    private const int MaxGroupBits = 10;

    /// <summary>Adds the candidate pairs: the careful walk's, cut where it cuts them.</summary>
    /// <param name="groupSlotBits">Slot bits per group (tests make it small, to split the small tables of a test dump into many groups).</param>
    public static void Collect(HashTableImage t, int n, DuplicateKeyCandidates pairs, int groupSlotBits = GroupSlotBits) =>
        Group(t, n, 1, groupSlotBits).Collect(pairs);

    /// <summary>
    /// The first round's grouping (below), the part of the work that reads the whole table, in <paramref name="parts"/>
    /// contiguous stretches of entries side by side; <see cref="Grouped.Collect"/> does the rest.
    /// </summary>
    public static Grouped Group(HashTableImage t, int n, int parts, int groupSlotBits = GroupSlotBits)
    {
        // One bitmap for the whole table outgrows the cache in a big table, and then each mark is a cache miss (bench/
        // RESULTS.md: 34 ns an entry at 0.5 M entries, 219 ns at 5 M). So every round first groups its keys by the top
        // bits of their slots (a counting pass, then a scatter into one array), and each group is filtered with a
        // bitmap of its own that stays in cache. Equal slots land in one group, so the survivors are the same.
        Round round = FirstRound(n, groupSlotBits);
        parts = Math.Clamp(parts, 1, Math.Max(n, 1));
        // Each stretch counts its live entries per group; a stretch's share of a group follows the earlier stretches'.
        var counts = new int[parts][];
        InParts(parts, p =>
        {
            (int from, int to) = Stretch(n, parts, p);
            counts[p] = new int[1 << round.GroupBits];
            CountLive(t.HashCodes.AsSpan(from, to - from), t.Nexts.AsSpan(from, to - from), t.Layout, round, counts[p]);
        });
        (int[] starts, int[][] fills, long[] keys) = Place(counts, round);
        InParts(parts, p =>
        {
            (int from, int to) = Stretch(n, parts, p);
            ScatterLive(t.HashCodes.AsSpan(from, to - from), t.Nexts.AsSpan(from, to - from), from, t.Layout, round, fills[p], keys);
        });
        return new Grouped(t.Buckets.Length, keys, starts, round, groupSlotBits);
    }

    /// <summary>The first round for a table of <paramref name="n"/> used entries.</summary>
    public static Round FirstRound(int n, int groupSlotBits = GroupSlotBits) => Round.For(BitsFor(n, 4), groupSlotBits, Multipliers[0]);

    /// <summary>
    /// From each stretch's live entries per group: where each group starts in the keys, where each stretch writes its
    /// share of each group (after the earlier stretches'), and the keys' array.
    /// </summary>
    private static (int[] Starts, int[][] Fills, long[] Keys) Place(int[][] counts, Round round)
    {
        int groups = 1 << round.GroupBits;
        var starts = new int[groups + 1];
        var fills = new int[counts.Length][];
        for (int p = 0; p < counts.Length; p++)
            fills[p] = new int[groups];
        for (int g = 0, at = 0; g < groups; g++)
        {
            starts[g] = at;
            for (int p = 0; p < counts.Length; p++)
            {
                fills[p][g] = at;
                at += counts[p][g];
            }
            starts[g + 1] = at;
        }
        // (hash code << 32 | index) of each live entry: the careful walk's sort key within a chain.
        return (starts, fills, BigArrays.Uninitialized<long>(starts[^1])); // the scatter writes every slot
    }

    /// <summary>Round one's keys, grouped by the top bits of their slots: the filter and the pairs follow from them.</summary>
    internal sealed class Grouped(int bucketCount, long[] keys, int[] starts, Round first, int groupSlotBits)
    {
        /// <summary>Adds the candidate pairs: the careful walk's, cut where it cuts them.</summary>
        [MethodImpl(MethodImplOptions.AggressiveOptimization)] // runs once per table, loops over the survivors
        public void Collect(DuplicateKeyCandidates pairs)
        {
            long[] current = keys;
            int count = KeepShared(current, starts, first);
            for (int r = 1; r <= ExtraRounds && count > 1; r++)
            {
                var round = Round.For(BitsFor(count, 4), groupSlotBits, Multipliers[r]);
                var next = new int[(1 << round.GroupBits) + 1];
                for (int k = 0; k < count; k++)
                    next[round.GroupOf((int)(current[k] >> 32)) + 1]++;
                int[] fill = StartsOf(next);
                long[] grouped = BigArrays.Uninitialized<long>(count);
                for (int k = 0; k < count; k++)
                    grouped[fill[round.GroupOf((int)(current[k] >> 32))]++] = current[k];
                current = grouped;
                count = KeepShared(current, next, round);
            }
            if (count < 2)
                return;
            RadixSort.Sort(current.AsSpan(0, count));
            Emit(current.AsSpan(0, count), new FastModulo((uint)bucketCount), pairs);
        }
    }

    /// <summary>One filter round's bitmap: its slot bits, the top ones that pick a group, and the multiplier.</summary>
    internal readonly record struct Round(int Bits, int GroupBits, uint Multiplier)
    {
        public static Round For(int bits, int groupSlotBits, uint multiplier) => new(bits, GroupBitsFor(bits, groupSlotBits), multiplier);

        /// <summary>A bitmap slot for a hash code; multiplied first, as small integer keys hash to themselves.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)] // per entry
        public uint SlotOf(int hash) => ((uint)hash * Multiplier) >> (32 - Bits);

        /// <summary>The top <see cref="GroupBits"/> of the slot, in one shift: 64 bits wide, so that with no group bits it is 0.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)] // per entry
        public uint GroupOf(int hash) => (uint)((ulong)((uint)hash * Multiplier) >> (32 - GroupBits));
    }

    /// <summary>Adds the live entries per group of one stretch of the table (its hash codes and nexts) to <paramref name="counts"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)] // millions of iterations: skip tier-0 code
    private static void CountLive(ReadOnlySpan<int> hashes, ReadOnlySpan<int> nexts, HashTableLayout layout, Round round, int[] counts)
    {
        nexts = nexts[..hashes.Length];
        for (int k = 0; k < hashes.Length; k++)
        {
            if (!layout.IsFree(hashes[k], nexts[k]))
                counts[round.GroupOf(hashes[k])]++;
        }
    }

    /// <summary>Writes the keys of one stretch's live entries (the first is entry <paramref name="first"/>) at their groups' fill positions.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)] // millions of iterations: skip tier-0 code
    private static void ScatterLive(ReadOnlySpan<int> hashes, ReadOnlySpan<int> nexts, int first, HashTableLayout layout, Round round, int[] fill, long[] keys)
    {
        nexts = nexts[..hashes.Length];
        for (int k = 0; k < hashes.Length; k++)
        {
            int hash = hashes[k];
            if (!layout.IsFree(hash, nexts[k]))
                keys[fill[round.GroupOf(hash)]++] = ((long)hash << 32) | (uint)(first + k);
        }
    }

    public static (int From, int To) Stretch(int n, int parts, int p) => ((int)((long)n * p / parts), (int)((long)n * (p + 1) / parts));

    /// <summary>Runs <paramref name="body"/> for each part; more than one side by side, one of them on this thread.</summary>
    public static void InParts(int parts, Action<int> body)
    {
        if (parts == 1)
            body(0);
        else
            Parallel.For(0, parts, body);
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
    private static int KeepShared(long[] keys, int[] starts, Round round)
    {
        int localBits = round.Bits - round.GroupBits;
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
                Mark(map, round.SlotOf((int)(keys[k] >> 32)) & mask);
            for (int k = from; k < to; k++)
                if (SeenTwice(map, round.SlotOf((int)(keys[k] >> 32)) & mask))
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
        // Each run of one hash code as (bucket << 32 | its start): sorted as numbers, runs come by bucket, then by hash code.
        var runs = new List<long>();
        for (int start = 0; start < sorted.Length;)
        {
            int end = RunEnd(sorted, start);
            if (end - start > 1)
                runs.Add((long)bucketOf.Remainder((uint)(sorted[start] >> 32)) << 32 | (uint)start);
            start = end;
        }
        Span<long> ordered = CollectionsMarshal.AsSpan(runs);
        RadixSort.Sort(ordered);

        uint full = uint.MaxValue; // the bucket whose limit was reached: its later runs are skipped
        uint bucket = uint.MaxValue;
        int inChain = 0;
        foreach (long run in ordered)
        {
            uint b = (uint)(run >> 32);
            int start = (int)run, end = RunEnd(sorted, start);
            if (b == full)
                continue;
            if (b != bucket)
                (bucket, inChain) = (b, 0);
            for (int x = start; x < end && b != full; x++)
                for (int y = x + 1; y < end; y++)
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

    /// <summary>Where the run of one hash code that begins at <paramref name="start"/> ends.</summary>
    private static int RunEnd(ReadOnlySpan<long> sorted, int start)
    {
        int end = start + 1;
        while (end < sorted.Length && sorted[end] >> 32 == sorted[start] >> 32)
            end++;
        return end;
    }

    private static int BitsFor(int count, int extraBits) => Math.Clamp(BitOperations.Log2((uint)Math.Max(count, 1)) + extraBits, 10, 28);

    [MethodImpl(MethodImplOptions.AggressiveInlining)] // per entry, twice per round: Native AOT left these as calls
    private static bool SeenTwice(ulong[] map, uint slot) => (map[((slot >> 6) << 1) + 1] & (1UL << (int)slot)) != 0;
}
