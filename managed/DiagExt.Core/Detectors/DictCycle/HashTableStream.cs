using System.Buffers;
using DiagExt.Core.Heap;
using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.DictCycle;

/// <summary>
/// A big table proven sound while its arrays stream past in the reader's 1 MB buffers, never copied whole: the proof's
/// sums (<see cref="ChainSums"/>) and the equal-hash filter's keys placed by group (<see cref="EqualHashBins"/>) in one
/// pass over the entries, the buckets' sums in a pass over them. Only the keys are new memory, where the
/// image would copy the buckets, hash codes and nexts too (72 MB of a 5-million-entry table, which a VM charges for
/// on first write: bench/RESULTS.md). It answers only "healthy": a table with a removed entry (a free list, which the
/// proof leaves to a walk), one the sums do not balance, or one with a candidate duplicate key is left to the image
/// and the classifier, which then describe it exactly as before.
/// </summary>
internal static class HashTableStream
{
    /// <summary>Entries from which a table is streamed: below, its copies are small and the image is as fast.</summary>
    public const int From = 1 << 20;

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
        if (raw <= 0 || raw > h.EntriesLength || h.BucketsLength != h.EntriesLength || h.FreeList != -1 || expectedFree != 0 || expectedLive != raw)
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
            read[p] = Entries(target, h, shape, from, to, (hashes, nexts, first) =>
            {
                sums[p].AddEntries(hashes, nexts, first, n, layout, bucketOf, mix);
                bins?.AddLive(p, hashes, nexts, first, layout);
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

    /// <summary>Hands entries from..to-1 to <paramref name="onEntries"/> as hash codes and nexts, a chunk at a time, in buffers reused throughout.</summary>
    private static bool Entries(Target target, HashTableHeader h, HashTableShape shape, int from, int to, EntriesAction onEntries)
    {
        int perChunk = TargetArrays.ElementsPerChunk(shape.EntrySize);
        int[] hashes = ArrayPool<int>.Shared.Rent(perChunk), nexts = ArrayPool<int>.Shared.Rent(perChunk);
        try
        {
            return TargetArrays.ReadInChunks(target, h.Entries, from, to, shape.EntrySize, (chunk, first) =>
            {
                int k = chunk.Length / shape.EntrySize;
                HashTableReader.Split(chunk, shape, hashes.AsSpan(0, k), nexts.AsSpan(0, k));
                onEntries(hashes.AsSpan(0, k), nexts.AsSpan(0, k), first);
            });
        }
        finally
        {
            ArrayPool<int>.Shared.Return(hashes);
            ArrayPool<int>.Shared.Return(nexts);
        }
    }

    private delegate void EntriesAction(ReadOnlySpan<int> hashes, ReadOnlySpan<int> nexts, int first);
}
