using System.Runtime.CompilerServices;

namespace DiagExt.Core.Detectors.DictCycle;

/// <summary>
/// <see cref="ChainProof"/>'s sums over a stretch of a table's entries and buckets. They only add, so stretches read
/// apart (from the image's arrays, or chunk by chunk as the target's bytes stream past, on one thread or two) add up to
/// the whole table's.
/// </summary>
internal struct ChainSums
{
    /// <summary>The two multisets' sums: (entry, its bucket) over live entries; (successor, its predecessor's bucket) over edges.</summary>
    public ulong Owned, Arrived;

    /// <summary>Edges seen: live entries' nexts in range and bucket heads in range.</summary>
    public long Edges;

    /// <summary>Live entries, those among them whose next does not go to a lower index, and free entries.</summary>
    public int Live, Forward, Free;

    /// <summary>A next or bucket head neither in range nor -1.</summary>
    public bool Bad;

    /// <summary>Whether every live entry has exactly one predecessor in its own bucket and no free one has any.</summary>
    public readonly bool Balanced => !Bad && Edges == Live && Arrived == Owned;

    /// <summary>
    /// Adds entries first..first+entries.Count-1 of a table whose first <paramref name="n"/> entries are used, and hands
    /// each live one to <paramref name="onLive"/> in the same loop (the stream's equal-hash placement reads what this reads).
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)] // millions of iterations per table: skip tier-0 code
    public void AddEntries<TFields, TLive>(TFields entries, int first, int n, HashTableLayout layout, FastModulo bucketOf, ChainMix mix, ref TLive onLive)
        where TFields : IEntryFields, allows ref struct
        where TLive : struct, ILiveEntries
    {
        ulong owned = Owned, arrived = Arrived;
        long edges = Edges;
        int live = Live, forward = Forward, free = Free;
        bool bad = Bad, liveByHashCode = layout.LiveByHashCode; // a local: the layout's field is read once, not per entry
        int count = entries.Count;
        for (int k = 0; k < count; k++)
        {
            int i = first + k, next = entries.Next(k), hash = entries.HashCode(k);
            if (liveByHashCode ? hash < 0 : next < -1) // HashTableLayout.IsFree
            {
                free++;
                continue; // its next belongs to the free list, checked by the free-list walk
            }
            live++;
            ulong bucket = bucketOf.Remainder((uint)hash);
            owned += mix.Of((ulong)(uint)i << 32 | bucket);
            bool isEdge = (uint)next < (uint)n;
            bad |= (next != -1) & !isEdge;
            // Without a branch (about half the entries end their chain, so it would be mispredicted half the time): an
            // entry that ends its chain adds its mix masked to nothing.
            int edge = isEdge ? 1 : 0;
            arrived += mix.Of((ulong)(uint)next << 32 | bucket) & (0UL - (ulong)edge);
            edges += edge;
            forward += edge & (next >= i ? 1 : 0);
            onLive.Add(i, hash);
        }
        (Owned, Arrived, Edges, Live, Forward, Free, Bad) = (owned, arrived, edges, live, forward, free, bad);
    }

    /// <summary>Adds buckets first..first+buckets.Length-1, each the head of its chain (plus one in one-based layouts).</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public void AddBuckets(ReadOnlySpan<int> buckets, int first, int n, bool oneBased, ChainMix mix)
    {
        ulong arrived = Arrived;
        long edges = Edges;
        bool bad = Bad;
        long offset = oneBased ? 1 : 0;
        for (int k = 0; k < buckets.Length; k++)
        {
            long head = buckets[k] - offset;
            bool inRange = (ulong)head < (ulong)n;
            bad |= (head != -1) & !inRange;
            int edge = inRange ? 1 : 0; // masked, not branched on, as in AddEntries
            arrived += mix.Of((ulong)head << 32 | (uint)(first + k)) & (0UL - (ulong)edge);
            edges += edge;
        }
        (Arrived, Edges, Bad) = (arrived, edges, bad);
    }

    public void Add(in ChainSums other)
    {
        Owned += other.Owned;
        Arrived += other.Arrived;
        Edges += other.Edges;
        Live += other.Live;
        Forward += other.Forward;
        Free += other.Free;
        Bad |= other.Bad;
    }
}
