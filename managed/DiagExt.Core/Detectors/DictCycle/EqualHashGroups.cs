using System.Numerics;
using System.Runtime.CompilerServices;

namespace DiagExt.Core.Detectors.DictCycle;

/// <summary>
/// The duplicate-key candidates of a table <see cref="ChainProof"/> has proven sound, without walking its chains:
/// there a chain is exactly the live entries whose hash codes map to its bucket, so two entries of one chain with
/// equal hash codes are two live entries with equal hash codes. Bitmap passes keep the entries whose hash code may
/// occur twice, a few percent, which are then sorted. Pairs come out in the careful walk's order (bucket, then hash
/// code, then index), so reports do not depend on which path ran.
/// </summary>
internal static class EqualHashGroups
{
    /// <summary>Filter rounds after the first: each uses another multiplier on the survivors only.</summary>
    private const int ExtraRounds = 2;

    private static readonly uint[] Multipliers = [0x9E3779B1u, 0x85EBCA77u, 0xC2B2AE3Du];

    /// <summary>Adds the candidate pairs; false when a limit would cut them where the careful walk would not.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)] // runs once per table, millions of iterations: skip tier-0 code
    public static bool TryCollect(HashTableImage t, int n, DuplicateKeyCandidates pairs)
    {
        int[] nexts = t.Nexts, hashes = t.HashCodes;
        HashTableLayout layout = t.Layout;
        // The first round reads the arrays directly (no list of every entry); about 8 bits per entry keep the
        // bitmap small enough to stay in cache, at the price of more survivors for the later rounds.
        int bits = BitsFor(n, 3);
        uint multiplier = Multipliers[0];
        var map = new ulong[2 << (bits - 6)];
        for (int i = 0; i < n; i++)
        {
            if (!layout.IsFree(hashes[i], nexts[i]))
                Mark(map, Slot(hashes[i], bits, multiplier));
        }
        // (hash code << 32 | index) of each survivor: the careful walk's sort key within a chain.
        var keys = new long[Math.Min(n, 1024)];
        int count = 0;
        for (int i = 0; i < n; i++)
        {
            int hash = hashes[i];
            if (!layout.IsFree(hash, nexts[i]) && SeenTwice(map, Slot(hash, bits, multiplier)))
            {
                if (count == keys.Length)
                    Array.Resize(ref keys, 2 * count);
                keys[count++] = ((long)hash << 32) | (uint)i;
            }
        }
        for (int round = 1; round <= ExtraRounds && count > 1; round++)
        {
            multiplier = Multipliers[round];
            bits = BitsFor(count, 4);
            map = new ulong[2 << (bits - 6)];
            for (int k = 0; k < count; k++)
                Mark(map, Slot((int)(keys[k] >> 32), bits, multiplier));
            int kept = 0;
            for (int k = 0; k < count; k++)
                if (SeenTwice(map, Slot((int)(keys[k] >> 32), bits, multiplier)))
                    keys[kept++] = keys[k];
            count = kept;
        }
        if (count < 2)
            return true;
        Array.Sort(keys, 0, count);
        return Emit(keys.AsSpan(0, count), new FastModulo((uint)t.Buckets.Length), pairs);
    }

    /// <summary>Marks a slot seen, or seen twice when it was seen before. Seen and seen-twice words sit side by side: one cache line per slot.</summary>
    private static void Mark(ulong[] map, uint slot)
    {
        ref ulong seen = ref map[(slot >> 6) << 1];
        ulong bit = 1UL << (int)slot;
        map[((slot >> 6) << 1) + 1] |= seen & bit;
        seen |= bit;
    }

    /// <summary>Every pair of each run of one hash code, runs ordered by bucket then hash code.</summary>
    private static bool Emit(ReadOnlySpan<long> sorted, FastModulo bucketOf, DuplicateKeyCandidates pairs)
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

        uint bucket = uint.MaxValue;
        int inChain = 0;
        foreach (var (b, start, length) in runs)
        {
            if (b != bucket)
                (bucket, inChain) = (b, 0);
            for (int x = start; x < start + length; x++)
                for (int y = x + 1; y < start + length; y++)
                    if (++inChain > DuplicateKeyCandidates.MaxPerChain || !pairs.Add((int)sorted[x], (int)sorted[y], (int)b))
                        return false;
        }
        return true;
    }

    private static int BitsFor(int count, int extraBits) => Math.Clamp(BitOperations.Log2((uint)Math.Max(count, 1)) + extraBits, 10, 28);

    private static bool SeenTwice(ulong[] map, uint slot) => (map[((slot >> 6) << 1) + 1] & (1UL << (int)slot)) != 0;

    /// <summary>A bitmap slot for a hash code; multiplied first, as small integer keys hash to themselves.</summary>
    private static uint Slot(int hash, int bits, uint multiplier) => ((uint)hash * multiplier) >> (32 - bits);
}
