using System.Runtime.CompilerServices;

namespace DiagExt.Core.Detectors.DictCycle;

/// <summary>
/// The fast path of the classifier: proves a table's chains sound without walking them. A chain walk waits for
/// each entry before it can load the next (about 60 ns an entry in a big table); these passes read the arrays
/// in order and look up each entry's successor independently, so the memory system serves many lookups at
/// once. It proves what the careful walk would otherwise find nothing wrong with:
/// every bucket head and every live entry's next is in range and in the same bucket as its predecessor, every
/// live entry has exactly one predecessor (a bucket or an entry) and no free entry has one, and no chain closes on
/// itself. Then the chains are disjoint paths from the buckets that reach every live entry. At the first doubt it
/// answers null and the careful walk describes the table. Measured on the bench's 5-million-entry table: bench/RESULTS.md.
/// </summary>
internal static class ChainProof
{
    /// <summary>
    /// Entries per block of successors: one block's hash codes and predecessor counts (5 bytes an entry, 320 KB) stay in
    /// L2 while its edges are checked. Whole-table lookups were random reads over arrays of 24 MB and more, and their
    /// cost per entry grew with the table (18.8 ns at 0.5 M entries, 63 at 5 M, 72 at 20 M: bench/RESULTS.md).
    /// </summary>
    internal const int DefaultBlockShift = 16;

    /// <summary>The number of live entries (all reached from the buckets) when the chains are proven sound; else null.</summary>
    public static int? Prove(HashTableImage t, int n) => Prove(t, n, DefaultBlockShift);

    /// <summary>As above, with blocks of 2^<paramref name="blockShift"/> entries (tests make them small).</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)] // runs once per table, millions of iterations: skip tier-0 code
    internal static int? Prove(HashTableImage t, int n, int blockShift)
    {
        int[] buckets = t.Buckets, nexts = t.Nexts, hashes = t.HashCodes;
        if (n == 0 || buckets.Length == 0 || n > nexts.Length || n > hashes.Length)
            return null; // nothing to gain: the careful walk is immediate
        HashTableLayout layout = t.Layout;
        bool oneBased = layout.OneBasedBuckets;
        var bucketOf = new FastModulo((uint)buckets.Length);
        int blocks = (n - 1 >> blockShift) + 1;
        // Edges per block of their successor; slot `blocks` absorbs the "no edge" cases so the loops do not branch.
        var perBlock = new int[blocks + 1];
        bool bad = false;
        long edges = 0;
        int live = 0, forward = 0;

        // 1. What needs no lookup: every successor and head in range; the edges counted per block.
        for (int i = 0; i < n; i++)
        {
            int next = nexts[i];
            if (layout.IsFree(hashes[i], next))
                continue; // free: its next belongs to the free list, checked by the free-list walk
            live++;
            bool isEdge = (uint)next < (uint)n;
            bad |= (next != -1) & !isEdge;
            perBlock[isEdge ? next >> blockShift : blocks]++;
            edges += isEdge ? 1 : 0;
            forward += isEdge & next >= i ? 1 : 0;
        }
        for (int b = 0; b < buckets.Length; b++)
        {
            long head = oneBased ? (long)buckets[b] - 1 : buckets[b];
            bool inRange = (ulong)head < (ulong)n;
            bad |= (head != -1) & !inRange;
            perBlock[inRange ? (int)head >> blockShift : blocks]++;
            edges += inRange ? 1 : 0;
        }
        if (bad || edges != live)
            return null;

        // 2. Each edge as (successor, the bucket it must be in), grouped by the successor's block: sequential writes
        // to one run per block.
        var at = new int[blocks + 1];
        for (int k = 1; k <= blocks; k++)
            at[k] = at[k - 1] + perBlock[k - 1];
        ulong[] byBlock = GC.AllocateUninitializedArray<ulong>(live); // every slot is written below
        for (int i = 0; i < n; i++)
        {
            int next = nexts[i], hash = hashes[i];
            if (layout.IsFree(hash, next) || (uint)next >= (uint)n)
                continue;
            byBlock[at[next >> blockShift]++] = (ulong)(uint)next << 32 | bucketOf.Remainder((uint)hash);
        }
        for (int b = 0; b < buckets.Length; b++)
        {
            long head = oneBased ? (long)buckets[b] - 1 : buckets[b];
            if ((ulong)head < (ulong)n)
                byBlock[at[(int)head >> blockShift]++] = (ulong)head << 32 | (uint)b;
        }

        // 3. Block by block: each successor in its predecessor's bucket, its predecessors counted modulo 256 (the
        // total is counted exactly, which makes the wrap harmless: see below).
        var predecessors = new byte[n];
        for (int e = 0; e < live; e++)
        {
            ulong edge = byBlock[e];
            int j = (int)(edge >> 32);
            bad |= bucketOf.Remainder((uint)hashes[j]) != (uint)edge;
            predecessors[j]++;
        }
        if (bad)
            return null;
        // Each live entry must count 1 and each free one 0: the counts wrap at 256, but they add up to exactly
        // `live`, so a live entry's true count is at least 1 and none can be more.
        for (int i = 0; i < n; i++)
        {
            if (predecessors[i] != (layout.IsFree(hashes[i], nexts[i]) ? 0 : 1))
                return null;
        }
        // Now the chains are disjoint paths from the buckets and perhaps loops no bucket reaches. A loop needs an
        // edge that does not go to a lower index; tables that never had an entry removed have none.
        return forward == 0 || !HasLoop(t, n) ? live : null;
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
