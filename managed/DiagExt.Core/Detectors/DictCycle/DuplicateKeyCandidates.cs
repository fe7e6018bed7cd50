using System.Runtime.CompilerServices;

namespace DiagExt.Core.Detectors.DictCycle;

/// <summary>
/// Pairs of entries of one chain with equal hash codes: the only entries that can hold the same key (racing
/// writers insert a key twice). The classifier hands over each chain as it walks it; the keys of all pairs
/// are then compared in one batch, so their reads can be sorted by address.
/// </summary>
internal sealed class DuplicateKeyCandidates
{
    /// <summary>Pairs per chain (a hostile chain of equal hash codes is long).</summary>
    public const int MaxPerChain = 4096;

    /// <summary>Pairs per table: they are kept until they are all read at once.</summary>
    public const int MaxPairs = 1 << 20;

    private long[] _sorted = new long[16];

    /// <summary>Entry pairs (lower index first) and the bucket of each.</summary>
    public List<(int A, int B)> Pairs { get; } = [];

    public List<int> Buckets { get; } = [];

    [MethodImpl(MethodImplOptions.AggressiveOptimization)] // called once per chain, millions of times in one table
    public void AddChain(ReadOnlySpan<int> chain, int[] hashCodes, int bucket)
    {
        if (chain.Length < 2)
            return;
        if (chain.Length == 2)
        {
            // Most chains of a healthy table are this short: no sort.
            if (hashCodes[chain[0]] == hashCodes[chain[1]])
                Add(chain[0], chain[1], bucket);
            return;
        }
        // (hash code, index) packed in a long: one primitive sort groups equal hash codes, lower index first.
        if (_sorted.Length < chain.Length)
            _sorted = new long[Math.Max(chain.Length, 2 * _sorted.Length)];
        Span<long> byHash = _sorted.AsSpan(0, chain.Length);
        for (int k = 0; k < chain.Length; k++)
            byHash[k] = ((long)hashCodes[chain[k]] << 32) | (uint)chain[k];
        byHash.Sort();
        int pairs = 0;
        for (int a = 0; a < byHash.Length; a++)
            for (int b = a + 1; b < byHash.Length && byHash[b] >> 32 == byHash[a] >> 32; b++)
                if (++pairs > MaxPerChain || !Add((int)byHash[a], (int)byHash[b], bucket))
                    return;
    }

    /// <summary>Adds one pair; false when the table's pair limit is reached.</summary>
    public bool Add(int x, int y, int bucket)
    {
        if (Pairs.Count >= MaxPairs)
            return false;
        Pairs.Add((Math.Min(x, y), Math.Max(x, y)));
        Buckets.Add(bucket);
        return true;
    }
}
