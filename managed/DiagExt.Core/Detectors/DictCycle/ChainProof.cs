using System.Runtime.CompilerServices;

namespace DiagExt.Core.Detectors.DictCycle;

/// <summary>
/// The fast path of the classifier: proves a table's chains sound without walking them. A chain walk waits for
/// each entry before it can load the next (about 60 ns an entry in a big table); this proof reads the arrays once,
/// in order, and never looks an entry up by its index. It proves what the careful walk would otherwise find nothing
/// wrong with: every bucket head and every live entry's next is in range, every live entry has exactly one predecessor
/// (a bucket or an entry) in its own bucket and no free entry has one, and no chain closes on itself. Then the chains
/// are disjoint paths from the buckets that reach every live entry. At the first doubt it answers null and the careful
/// walk describes the table. Measured on the bench's 5-million-entry table: bench/RESULTS.md.
/// </summary>
/// <remarks>
/// "Exactly one predecessor, in its bucket" is the statement that two multisets are equal: the pairs (successor,
/// the bucket its predecessor is in) over every edge, and the pairs (entry, its own bucket) over every live entry.
/// Both are summed through a 64-bit mix (<see cref="ChainMix"/>) keyed by a secret drawn once per process, so two different multisets give
/// equal sums only by chance, about 2^-64, and a hostile dump cannot aim at the key. Counting predecessors entry by
/// entry gave the same answer with random reads (63 ns an entry at 5 M entries, 28 when grouped by block); the sums
/// cost a few ns.
/// </remarks>
internal static class ChainProof
{
    /// <summary>The mix's key: fixed for the process, unknown to whoever wrote the dump.</summary>
    internal static readonly ulong ProcessKey = DrawKey();

    /// <summary>The number of live entries (all reached from the buckets) when the chains are proven sound; else null.</summary>
    public static int? Prove(HashTableImage t, int n) => Prove(t, n, ProcessKey);

    /// <summary>As above, with the mix keyed by <paramref name="key"/> (tests try several).</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)] // runs once per table, millions of iterations: skip tier-0 code
    internal static int? Prove(HashTableImage t, int n, ulong key)
    {
        int[] buckets = t.Buckets, nexts = t.Nexts, hashes = t.HashCodes;
        if (n == 0 || buckets.Length == 0 || n > nexts.Length || n > hashes.Length)
            return null; // nothing to gain: the careful walk is immediate
        var sums = new ChainSums();
        var mix = new ChainMix(key);
        var none = new NoLiveEntries(); // the image's filter groups its keys apart (EqualHashGroups)
        sums.AddEntries(new SplitEntryFields(hashes.AsSpan(0, n), nexts.AsSpan(0, n)), 0, n, t.Layout, new FastModulo((uint)buckets.Length), mix, ref none);
        sums.AddBuckets(buckets, 0, n, t.Layout.OneBasedBuckets, mix);
        if (!sums.Balanced)
            return null;
        // Now the chains are disjoint paths from the buckets and perhaps loops no bucket reaches. A loop needs an
        // edge that does not go to a lower index; tables that never had an entry removed have none.
        return sums.Forward == 0 || !HasLoop(t, n) ? sums.Live : null;
    }

    /// <summary>
    /// 64 bits from the OS's secure generator, through Guid.NewGuid (its bytes come from it on every platform):
    /// RandomNumberGenerator would load OpenSSL on Linux, 3 MB of a small dump's RSS for eight bytes. Its two
    /// halves XORed: the few fixed version and variant bits sit at different places in each half.
    /// </summary>
    private static ulong DrawKey()
    {
        Span<byte> bytes = stackalloc byte[16];
        Guid.NewGuid().TryWriteBytes(bytes);
        return BitConverter.ToUInt64(bytes[..8]) ^ BitConverter.ToUInt64(bytes[8..]);
    }

    /// <summary>
    /// Whether an entry's chain closes on itself, for the forest-or-loops structure proven above. Each entry with
    /// a forward edge (next >= itself) is followed down its backward edges to the next such entry or the chain's end;
    /// those stretches are disjoint (one predecessor each), so this reads each entry at most once, and the loops are
    /// those of the small graph of forward entries.
    /// </summary>
    private static bool HasLoop(HashTableImage t, int n)
    {
        int[] nexts = t.Nexts, hashes = t.HashCodes;
        var isForward = new BitSet(n);
        var forward = new List<int>();
        for (int i = 0; i < n; i++)
        {
            int next = nexts[i];
            if ((uint)next < (uint)n && next >= i && !t.Layout.IsFree(hashes[i], next))
            {
                isForward[i] = true;
                forward.Add(i);
            }
        }
        // reaches[k]: the position in `forward` of the forward entry k's stretch ends at, or -1 at a chain's end.
        var reaches = new int[forward.Count];
        long steps = 0;
        for (int k = 0; k < forward.Count; k++)
        {
            int x = nexts[forward[k]];
            while (!isForward[x] && nexts[x] != -1)
            {
                x = nexts[x]; // a backward edge: x only decreases, and the proof holds every next in range
                // Neither can happen on a proven structure; checked anyway, answering "let the careful walk look".
                if ((uint)x >= (uint)n || ++steps > n)
                    return true;
            }
            reaches[k] = isForward[x] ? forward.BinarySearch(x) : -1;
        }
        // A functional graph on the forward entries: follow each unvisited one, marking the current trail.
        var state = new byte[forward.Count]; // 0 unseen, 1 on the current trail, 2 finished
        for (int start = 0; start < forward.Count; start++)
        {
            int k = start;
            while (k != -1 && state[k] == 0)
            {
                state[k] = 1;
                k = reaches[k];
            }
            if (k != -1 && state[k] == 1)
                return true;
            for (k = start; k != -1 && state[k] == 1; k = reaches[k])
                state[k] = 2;
        }
        return false;
    }
}
