using System.Buffers.Binary;
using DiagExt.Core.Heap;
using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.DictCycle;

/// <summary>A Dictionary/HashSet instance as read from the target: its fields, arrays and the image to classify.</summary>
internal sealed record HashTableInstance(ulong Address, ulong BucketsArray, ulong EntriesArray, HashTableImage Image);

/// <summary>
/// Reads one instance with three bulk reads (the object, the bucket array, the entry array in chunks),
/// never one ClrMD call per element. Lengths are checked against the limits before allocating.
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

        int[]? bucketValues = bucketsLength == 0 ? [] : TargetArrays.ReadInt32s(target, buckets, bucketsLength);
        if (bucketValues is null)
            return (Status.Unreadable, null, "its bucket array is not fully in the dump");

        int[] hashCodes = BigArrays.Uninitialized<int>(entriesLength); // every element is written from the chunks
        int[] nexts = BigArrays.Uninitialized<int>(entriesLength);
        var blank = new BitSet(entriesLength);
        bool complete = entriesLength == 0 || TargetArrays.ReadInChunks(target, entries, entriesLength, shape.EntrySize, (chunk, first) =>
        {
            for (int k = 0, off = 0; off + shape.EntrySize <= chunk.Length; k++, off += shape.EntrySize)
            {
                ReadOnlySpan<byte> entry = chunk.Slice(off, shape.EntrySize);
                int hashCode = BinaryPrimitives.ReadInt32LittleEndian(entry[shape.HashCodeOffset..]);
                int next = BinaryPrimitives.ReadInt32LittleEndian(entry[shape.NextOffset..]);
                hashCodes[first + k] = hashCode;
                nexts[first + k] = next;
                // A written entry almost always has a non-zero hashCode or next: only then look at the rest.
                if (hashCode == 0 && next == 0 && !entry.ContainsAnyExcept((byte)0))
                    blank[first + k] = true;
            }
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
            Count = count,
            FreeList = freeList,
            FreeCount = freeCount,
            LastIndex = lastIndex,
            KeysEqual = heap is null ? null : new EntryKeyComparer(target, heap, TargetArrays.DataAddress(target, entries), shape).Equal,
        };
        return (Status.Read, new HashTableInstance(address, buckets, entries, image), null);
    }

    private static ulong Pointer(ReadOnlySpan<byte> fields, int offset, int pointerSize) =>
        pointerSize == 8 ? BinaryPrimitives.ReadUInt64LittleEndian(fields[offset..]) : BinaryPrimitives.ReadUInt32LittleEndian(fields[offset..]);
}
