using System.Buffers.Binary;
using System.Runtime.CompilerServices;
using DiagExt.Core.Heap;
using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.DictCycle;

/// <summary>A Dictionary/HashSet instance as read from the target: its fields, arrays and the image to classify.</summary>
internal sealed record HashTableInstance(ulong Address, ulong BucketsArray, ulong EntriesArray, HashTableImage Image);

/// <summary>An instance's fields and its arrays' addresses and lengths, checked, before any array is read.</summary>
internal sealed record HashTableHeader(ulong Address, ulong Buckets, int BucketsLength, ulong Entries, int EntriesLength, int Count, int FreeList, int? FreeCount, int? LastIndex);

/// <summary>
/// Reads one instance with three bulk reads (the object, the bucket array, the entry array in chunks),
/// never one ClrMD call per element. Lengths are checked against the limits before allocating. The header alone (fields
/// and checked lengths) is what <see cref="HashTableStream"/> needs to try a big table without copying its arrays.
/// </summary>
internal static class HashTableReader
{
    public enum Status
    {
        Read,
        Empty,
        Unreadable,
    }

    /// <summary>
    /// Reads the instance at <paramref name="address"/>; with a heap, its arrays are checked to be what they claim
    /// (type, and extent within their segment) and duplicate keys can be checked too.
    /// </summary>
    public static (Status Status, HashTableInstance? Instance, string? Problem) Read(Target target, ulong address, HashTableShape shape, ClrHeap? heap = null)
    {
        var (status, header, problem) = ReadHeader(target, address, shape, heap);
        return status == Status.Read ? Read(target, header!, shape, heap) : (status, null, problem);
    }

    /// <summary>The instance's fields and its arrays' lengths, checked (the arrays themselves are not read).</summary>
    public static (Status Status, HashTableHeader? Header, string? Problem) ReadHeader(Target target, ulong address, HashTableShape shape, ClrHeap? heap = null)
    {
        int ptr = target.PointerSize;
        int fieldsSize = Math.Max(Math.Max(shape.BucketsOffset, shape.EntriesOffset), Math.Max(Math.Max(shape.CountOffset, shape.FreeListOffset), Math.Max(shape.FreeCountOffset, shape.LastIndexOffset))) + 8;
        Span<byte> fields = stackalloc byte[fieldsSize];
        // Instance fields start after the MethodTable pointer.
        if (target.ReadMemory(address + (ulong)ptr, fields) != fieldsSize)
            return (Status.Unreadable, null, "the object's fields are not in the dump");

        ulong buckets = Pointer(fields, shape.BucketsOffset, ptr);
        ulong entries = Pointer(fields, shape.EntriesOffset, ptr);
        int count = BinaryPrimitives.ReadInt32LittleEndian(fields[shape.CountOffset..]);
        int freeList = BinaryPrimitives.ReadInt32LittleEndian(fields[shape.FreeListOffset..]);
        int? freeCount = shape.FreeCountOffset >= 0 ? BinaryPrimitives.ReadInt32LittleEndian(fields[shape.FreeCountOffset..]) : null;
        int? lastIndex = shape.LastIndexOffset >= 0 ? BinaryPrimitives.ReadInt32LittleEndian(fields[shape.LastIndexOffset..]) : null;

        if (buckets == 0 && entries == 0 && count == 0 && (lastIndex ?? 0) == 0)
            return (Status.Empty, null, null); // never used: arrays are allocated on first insert

        int bucketsLength = buckets == 0 ? 0 : TargetArrays.ReadLength(target, buckets);
        int entriesLength = entries == 0 ? 0 : TargetArrays.ReadLength(target, entries);
        int limit = target.Limits.MaxHashTableLength;
        if (bucketsLength < 0 || entriesLength < 0)
            return (Status.Unreadable, null, "its bucket or entry array is not in the dump");
        if (bucketsLength > limit || entriesLength > limit)
            return (Status.Unreadable, null, $"its arrays claim {Math.Max(bucketsLength, entriesLength)} elements, over the limit of {limit}");
        // With the heap at hand, check the references are the right arrays and fit their segment before allocating.
        if (heap is not null
            && ((buckets != 0 ? HeapArrayCheck.Problem(heap, buckets, bucketsLength, 4, 0, "System.Int32[]") is { } b ? $"its bucket array {b}" : null : null)
                ?? (entries != 0 ? HeapArrayCheck.Problem(heap, entries, entriesLength, shape.EntrySize, shape.EntryArrayMethodTable, shape.EntryArrayName) is { } e ? $"its entry array {e}" : null : null)) is { } problem)
            return (Status.Unreadable, null, problem);
        return (Status.Read, new HashTableHeader(address, buckets, bucketsLength, entries, entriesLength, count, freeList, freeCount, lastIndex), null);
    }

    /// <summary>The instance's arrays, copied out of the target into the image the classifier reads.</summary>
    public static (Status Status, HashTableInstance? Instance, string? Problem) Read(Target target, HashTableHeader h, HashTableShape shape, ClrHeap? heap)
    {
        int[]? bucketValues = h.BucketsLength == 0 ? [] : TargetArrays.ReadInt32s(target, h.Buckets, h.BucketsLength);
        if (bucketValues is null)
            return (Status.Unreadable, null, "its bucket array is not fully in the dump");

        int entriesLength = h.EntriesLength;
        int[] hashCodes = BigArrays.Uninitialized<int>(entriesLength); // every element is written from the chunks
        int[] nexts = BigArrays.Uninitialized<int>(entriesLength);
        var blank = new BitSet(entriesLength);
        bool complete = entriesLength == 0 || TargetArrays.ReadInChunks(target, h.Entries, entriesLength, shape.EntrySize, (chunk, first) =>
        {
            int k = chunk.Length / shape.EntrySize;
            Span<int> chunkHashes = hashCodes.AsSpan(first, k), chunkNexts = nexts.AsSpan(first, k);
            Split(chunk, shape, chunkHashes, chunkNexts);
            // A written entry almost always has a non-zero hashCode or next: only then look at the rest.
            for (int j = 0; j < k; j++)
                if ((chunkHashes[j] | chunkNexts[j]) == 0 && !chunk.Slice(j * shape.EntrySize, shape.EntrySize).ContainsAnyExcept((byte)0))
                    blank[first + j] = true;
        });
        if (!complete)
            return (Status.Unreadable, null, "its entry array is not fully in the dump");

        var image = new HashTableImage
        {
            Layout = shape.Layout,
            Buckets = bucketValues,
            HashCodes = hashCodes,
            Nexts = nexts,
            Blank = new BitSetView(blank, entriesLength),
            Count = h.Count,
            FreeList = h.FreeList,
            FreeCount = h.FreeCount,
            LastIndex = h.LastIndex,
            KeysEqual = KeyComparison(target, heap, h, shape),
        };
        return (Status.Read, new HashTableInstance(h.Address, h.Buckets, h.Entries, image), null);
    }

    /// <summary>Which entry pairs hold equal keys, read from the target; null without a heap (no duplicate-key check).</summary>
    public static Func<IReadOnlyList<(int A, int B)>, bool[]>? KeyComparison(Target target, ClrHeap? heap, HashTableHeader h, HashTableShape shape) =>
        heap is null ? null : new EntryKeyComparer(target, heap, TargetArrays.DataAddress(target, h.Entries), shape).Equal;

    /// <summary>Each entry's hashCode and next out of a chunk of raw entries (as many entries as the spans hold).</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)] // every entry of every table: skip tier-0 code
    public static void Split(ReadOnlySpan<byte> chunk, HashTableShape shape, Span<int> hashes, Span<int> nexts)
    {
        int size = shape.EntrySize, hashAt = shape.HashCodeOffset, nextAt = shape.NextOffset;
        nexts = nexts[..hashes.Length];
        for (int k = 0, off = 0; k < hashes.Length && off + size <= chunk.Length; k++, off += size)
        {
            hashes[k] = BinaryPrimitives.ReadInt32LittleEndian(chunk.Slice(off + hashAt, 4));
            nexts[k] = BinaryPrimitives.ReadInt32LittleEndian(chunk.Slice(off + nextAt, 4));
        }
    }

    private static ulong Pointer(ReadOnlySpan<byte> fields, int offset, int pointerSize) =>
        pointerSize == 8 ? BinaryPrimitives.ReadUInt64LittleEndian(fields[offset..]) : BinaryPrimitives.ReadUInt32LittleEndian(fields[offset..]);
}
