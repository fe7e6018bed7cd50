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
        // Few locals, as the loop has more values than x64 has registers: live is counted as count - free at the end,
        // and edges and forward edges share one word (each below 2^31 in one call).
        ulong owned = Owned, arrived = Arrived, links = 0;
        int free = 0, bad = 0;
        bool liveByHashCode = layout.LiveByHashCode; // a local: the layout's field is read once, not per entry
        int count = entries.Count;
        for (int k = 0; k < count; k++)
        {
            int i = first + k, next = entries.Next(k), hash = entries.HashCode(k);
            if (liveByHashCode ? hash < 0 : next < -1) // HashTableLayout.IsFree
            {
                free++;
                continue; // its next belongs to the free list, checked by the free-list walk
            }
            ulong bucket = bucketOf.Remainder((uint)hash);
            owned += mix.Of((ulong)(uint)i << 32 | bucket);
            int edge = (uint)next < (uint)n ? 1 : 0;
            bad |= (next != -1 ? 1 : 0) & (edge ^ 1);
            // Without a branch (about half the entries end their chain, so it would be mispredicted half the time): an
            // entry that ends its chain adds its mix masked to nothing.
            arrived += mix.Of((ulong)(uint)next << 32 | bucket) & (0UL - (ulong)edge);
            links += (uint)edge | (ulong)(uint)(edge & (next >= i ? 1 : 0)) << 32;
            onLive.Add(i, hash);
        }
        (Owned, Arrived) = (owned, arrived);
        Edges += (uint)links;
        Forward += (int)(links >> 32);
        Live += count - free;
        Free += free;
        Bad |= bad != 0;
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
