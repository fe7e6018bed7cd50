using System.Buffers;
using DiagExt.Core.Heap;
using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.DictCycle;

/// <summary>
/// A big table proven sound while its arrays stream past in the reader's 1 MB buffers, never copied whole: the proof's
/// sums (<see cref="ChainSums"/>) and the equal-hash filter's counts in one pass over the entries, the buckets' sums in
/// a pass over them, the filter's keys in a second pass over the entries. Only the keys are new memory, where the
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
        EqualHashGroups.Round round = EqualHashGroups.FirstRound(n);
        parts = Math.Clamp(parts, 1, 8);

        // Pass 1: the entries' sums and the filter's counts per group, each stretch on its own.
        var sums = new ChainSums[parts];
        var counts = new int[parts][];
        var read = new bool[parts];
        EqualHashGroups.InParts(parts, p =>
        {
            counts[p] = new int[1 << round.GroupBits];
            (int from, int to) = EqualHashGroups.Stretch(n, parts, p);
            read[p] = Entries(target, h, shape, from, to, (hashes, nexts, first) =>
            {
                sums[p].AddEntries(hashes, nexts, first, n, layout, bucketOf, key);
                EqualHashGroups.CountLive(hashes, nexts, layout, round, counts[p]);
            });
        });
        ChainSums total = default;
        foreach (ChainSums part in sums)
            total.Add(part);
        if (read.Contains(false) || total.Free != 0 || total.Forward != 0 || total.Live != n)
            return false; // a free entry without a free list, or an edge a loop would need: the careful walk decides

        // The buckets' sums.
        bool bucketsRead = TargetArrays.ReadInChunks(target, h.Buckets, h.BucketsLength, sizeof(int), (chunk, first) =>
            total.AddBuckets(System.Runtime.InteropServices.MemoryMarshal.Cast<byte, int>(chunk), first, n, layout.OneBasedBuckets, key));
        if (!bucketsRead || !total.Balanced)
            return false;
        if (heap is null)
            return true; // no duplicate-key check without a heap, as the image's

        // Pass 2: the filter's keys, then its candidates' keys compared.
        (int[] starts, int[][] fills, long[] keys) = EqualHashGroups.Place(counts, round);
        int[][] ends = fills.Select((fill, p) => fill.Select((at, g) => at + counts[p][g]).ToArray()).ToArray();
        try
        {
            EqualHashGroups.InParts(parts, p =>
            {
                (int from, int to) = EqualHashGroups.Stretch(n, parts, p);
                read[p] = Entries(target, h, shape, from, to, (hashes, nexts, first) =>
                    EqualHashGroups.ScatterLive(hashes, nexts, first, layout, round, fills[p], keys));
            });
        }
        catch (Exception e) when (e is IndexOutOfRangeException || e is AggregateException all && all.InnerExceptions.All(x => x is IndexOutOfRangeException))
        {
            return false; // more live entries than the first pass counted: the bytes changed between the passes
        }
        // Every stretch filled exactly its share of every group: the second pass read what the first counted.
        if (read.Contains(false) || fills.Where((fill, p) => !fill.AsSpan().SequenceEqual(ends[p])).Any())
            return false;
        var pairs = new DuplicateKeyCandidates();
        new EqualHashGroups.Grouped(h.BucketsLength, keys, starts, round, EqualHashGroups.DefaultGroupSlotBits).Collect(pairs);
        return pairs.Pairs.Count == 0 || !HashTableReader.KeyComparison(target, heap, h, shape)!(pairs.Pairs).Contains(true);
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
