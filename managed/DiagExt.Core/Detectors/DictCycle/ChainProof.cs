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
    /// <summary>The number of live entries (all reached from the buckets) when the chains are proven sound; else null.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)] // runs once per table, millions of iterations: skip tier-0 code
    public static int? Prove(HashTableImage t, int n)
    {
        int[] buckets = t.Buckets, nexts = t.Nexts, hashes = t.HashCodes;
        if (n == 0 || buckets.Length == 0 || n > nexts.Length || n > hashes.Length)
            return null; // nothing to gain: the careful walk is immediate
        HashTableLayout layout = t.Layout;
        bool oneBased = layout.OneBasedBuckets;
        var bucketOf = new FastModulo((uint)buckets.Length);
        // Predecessors per entry, counted modulo 256; slot n absorbs the "no edge" cases so the loops do not branch.
        // The total is counted exactly, which makes the wrap harmless (see the end).
        var predecessors = new byte[n + 1];
        bool bad = false;
        long edges = 0;
        int live = 0, forward = 0;

        for (int i = 0; i < n; i++)
        {
            int next = nexts[i], hash = hashes[i];
            if (layout.IsFree(hash, next))
                continue; // free: its next belongs to the free list, checked by the free-list walk
            live++;
            bool isEdge = (uint)next < (uint)n;
            int j = isEdge ? next : i;
            bad |= (next != -1) & !isEdge;
            bad |= isEdge & bucketOf.Remainder((uint)hashes[j]) != bucketOf.Remainder((uint)hash);
            predecessors[isEdge ? j : n]++;
            edges += isEdge ? 1 : 0;
            forward += isEdge & j >= i ? 1 : 0;
        }
        for (int b = 0; b < buckets.Length; b++)
        {
            long head = oneBased ? (long)buckets[b] - 1 : buckets[b];
            bool inRange = (ulong)head < (ulong)n;
            int h = inRange ? (int)head : 0;
            bad |= (head != -1) & !inRange;
            bad |= inRange & bucketOf.Remainder((uint)hashes[h]) != (uint)b;
            predecessors[inRange ? h : n]++;
            edges += inRange ? 1 : 0;
        }
        if (bad || edges != live)
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
