using System.Buffers.Binary;
using DiagExt.Core.Heap;
using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.DictCycle;

/// <summary>A Dictionary/HashSet instance as read from the target: its fields, arrays and the image to classify.</summary>
public sealed record HashTableInstance(ulong Address, ulong BucketsArray, ulong EntriesArray, HashTableImage Image);

/// <summary>An instance's fields and array lengths: enough to decide whether, and in which order, to read its arrays.</summary>
public sealed record HashTableHeader(ulong Address, ulong BucketsArray, int BucketsLength, ulong EntriesArray, int EntriesLength, int Count, int FreeList, int? FreeCount, int? LastIndex);

/// <summary>
/// Reads one instance with three bulk reads (the object, the bucket array, the entry array in chunks),
/// never one ClrMD call per element. Lengths are checked against the limits before allocating.
/// </summary>
public static class HashTableReader
{
    public enum Status
    {
        Read,
        Empty,
        Unreadable,
    }

    /// <summary>Reads the instance at <paramref name="address"/>; with a heap, duplicate keys can be checked too.</summary>
    public static (Status Status, HashTableInstance? Instance, string? Problem) Read(Target target, ulong address, HashTableShape shape, ClrHeap? heap = null)
    {
        var (status, header, problem) = ReadHeader(target, address, shape);
        return header is null ? (status, null, problem) : ReadArrays(target, header, shape, heap);
    }

    /// <summary>The instance's fields and the lengths of its arrays (three small reads).</summary>
    public static (Status Status, HashTableHeader? Header, string? Problem) ReadHeader(Target target, ulong address, HashTableShape shape)
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
        return (Status.Read, new HashTableHeader(address, buckets, bucketsLength, entries, entriesLength, count, freeList, freeCount, lastIndex), null);
    }

    /// <summary>The bucket array in one read and each entry's hashCode and next, streamed from the entry array in chunks.</summary>
    public static (Status Status, HashTableInstance? Instance, string? Problem) ReadArrays(Target target, HashTableHeader header, HashTableShape shape, ClrHeap? heap = null)
    {
        int[]? bucketValues = header.BucketsLength == 0 ? [] : TargetArrays.ReadInt32s(target, header.BucketsArray, header.BucketsLength);
        if (bucketValues is null)
            return (Status.Unreadable, null, "its bucket array is not fully in the dump");

        int length = header.EntriesLength;
        var hashCodes = new int[length];
        var nexts = new int[length];
        var blank = new BitSet(length);
        bool complete = length == 0 || TargetArrays.ReadInChunks(target, header.EntriesArray, length, shape.EntrySize, (chunk, first) =>
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
            Blank = new BitSetView(blank, length),
            Count = header.Count,
            FreeList = header.FreeList,
            FreeCount = header.FreeCount,
            LastIndex = header.LastIndex,
            KeysEqual = heap is null ? null : new EntryKeyComparer(target, heap, TargetArrays.DataAddress(target, header.EntriesArray), shape).Equal,
        };
        return (Status.Read, new HashTableInstance(header.Address, header.BucketsArray, header.EntriesArray, image), null);
    }

    private static ulong Pointer(ReadOnlySpan<byte> fields, int offset, int pointerSize) =>
        pointerSize == 8 ? BinaryPrimitives.ReadUInt64LittleEndian(fields[offset..]) : BinaryPrimitives.ReadUInt32LittleEndian(fields[offset..]);
}
