using DiagExt.Core.Heap;
using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.DictCycle;

/// <summary>
/// A table proven sound while its arrays stream past in the reader's 1 MB buffers, never copied whole: the proof's
/// sums (<see cref="ChainSums"/>) and the equal-hash filter's keys placed by group (<see cref="EqualHashBins"/>) in one
/// pass over the entries, the buckets' sums in a pass over them. Only the keys are new memory, where the
/// image would copy the buckets, hash codes and nexts too (72 MB of a 5-million-entry table, which a VM charges for
/// on first write: bench/RESULTS.md). It answers only "healthy": a table with a removed entry (a free list, which the
/// proof leaves to a walk), one the sums do not balance, or one with a candidate duplicate key is left to the image
/// and the classifier, which then describe it exactly as before.
/// </summary>
internal static class HashTableStream
{
    /// <summary>
    /// Entries from which a table is streamed. Since the stream reads the entries in place in one loop, it is cheaper
    /// than the image from about a thousand entries (the bench dump's 4,000 tables, 1 K to 4 K entries: analyze 0.96x
    /// its wall at 1 M, over 11 alternated pairs); from 64 entries it gained nothing more.
    /// </summary>
    public const int From = 1 << 10;

    /// <summary>
    /// Whether the table is proven healthy without its image; false means "not proven" (read and classify it).
    /// <paramref name="parts"/> stretches are read side by side.
    /// </summary>
    public static bool ProvenHealthy(Target target, HashTableHeader h, HashTableShape shape, ClrHeap? heap, int parts) =>
        ProvenHealthy(target, h, shape, heap, parts, ChainProof.ProcessKey);

    internal static bool ProvenHealthy(Target target, HashTableHeader h, HashTableShape shape, ClrHeap? heap, int parts, ulong key)
    {
        HashTableLayout layout = shape.Layout;
        int raw = layout.HighWater(h.Count, h.LastIndex);
        int expectedFree = layout.FreeCount(raw, h.Count, h.FreeCount) ?? 0;
        int expectedLive = layout.LiveCount(h.Count, h.FreeCount);
        // What the classifier's size and free-list checks would find nothing wrong with, for a table nothing was removed from.
        if (raw <= 0 || raw > h.EntriesLength || h.BucketsLength != h.EntriesLength || h.FreeList != -1 || expectedFree != 0 || expectedLive != raw
            || !RawEntryFields.Fits(shape))
            return false;
        int n = raw;
        var bucketOf = new FastModulo((uint)h.BucketsLength);
        var mix = new ChainMix(key);
        parts = Math.Clamp(parts, 1, 8);
        var bins = heap is null ? null : new EqualHashBins(n, parts);

        // One pass: each stretch of entries adds to the sums and places the filter's keys, then adds its stretch of buckets.
        var sums = new ChainSums[parts];
        var read = new bool[parts];
        EqualHashGroups.InParts(parts, p =>
        {
            (int from, int to) = EqualHashGroups.Stretch(n, parts, p);
            (int bucketsFrom, int bucketsTo) = EqualHashGroups.Stretch(h.BucketsLength, parts, p);
            EqualHashBins.Placer placer = bins?.For(p) ?? default;
            var none = new NoLiveEntries();
            read[p] = TargetArrays.ReadInChunks(target, h.Entries, from, to, shape.EntrySize, (chunk, first) =>
            {
                var entries = new RawEntryFields(chunk, shape);
                if (bins is null)
                    sums[p].AddEntries(entries, first, n, layout, bucketOf, mix, ref none);
                else
                    sums[p].AddEntries(entries, first, n, layout, bucketOf, mix, ref placer);
            }) && TargetArrays.ReadInChunks(target, h.Buckets, bucketsFrom, bucketsTo, sizeof(int), (chunk, first) =>
                sums[p].AddBuckets(System.Runtime.InteropServices.MemoryMarshal.Cast<byte, int>(chunk), first, n, layout.OneBasedBuckets, mix));
        });
        ChainSums total = default;
        foreach (ChainSums part in sums)
            total.Add(part);
        // A free entry without a free list, or an edge a loop would need, or unbalanced sums: the careful walk decides.
        if (read.Contains(false) || total.Free != 0 || total.Forward != 0 || total.Live != n || !total.Balanced)
            return false;
        if (bins is null)
            return true; // no duplicate-key check without a heap, as the image's
        if (bins.Overflowed)
            return false; // hash codes crowding one group: the image counts before it places

        var pairs = new DuplicateKeyCandidates();
        bins.Close(h.BucketsLength).Collect(pairs);
        return pairs.Pairs.Count == 0 || !HashTableReader.KeyComparison(target, heap!, h, shape)!(pairs.Pairs).Contains(true);
    }
}
