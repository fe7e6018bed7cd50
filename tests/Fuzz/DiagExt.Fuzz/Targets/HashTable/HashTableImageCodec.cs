using System.Buffers.Binary;
using DiagExt.Core.Detectors.DictCycle;

namespace DiagExt.Fuzz.Targets.HashTable;

/// <summary>
/// A Dictionary/HashSet image as fuzz input bytes: layout (1), flags (1), count, freeList, freeCount, lastIndex (4
/// each), the bucket and entry counts (4 each), the buckets, each entry's hashCode and next, then the never-written
/// bits. Arrays are cut to what the input holds, so a truncated input is a shorter table, not an error.
/// </summary>
public static class HashTableImageCodec
{
    public const int HeaderSize = 26;

    /// <summary>Flag: keys of entries with equal hash codes compare equal (duplicate keys, long comparison chains).</summary>
    public const byte KeysEqualByHash = 1;

    public static readonly HashTableLayout[] Layouts =
    [
        HashTableLayout.ModernDictionary, HashTableLayout.ModernHashSet, HashTableLayout.Core21Dictionary,
        HashTableLayout.FrameworkDictionary, HashTableLayout.FrameworkHashSet, HashTableLayout.CoreSlotsHashSet,
    ];

    public static HashTableImage Decode(ReadOnlySpan<byte> d)
    {
        Span<byte> header = stackalloc byte[HeaderSize];
        d[..Math.Min(d.Length, HeaderSize)].CopyTo(header);
        HashTableLayout layout = Layouts[header[0] % Layouts.Length];
        int count = I32(header, 2), freeList = I32(header, 6), freeCount = I32(header, 10), lastIndex = I32(header, 14);
        ReadOnlySpan<byte> rest = d.Length > HeaderSize ? d[HeaderSize..] : [];
        int buckets = (int)Math.Min(BinaryPrimitives.ReadUInt32LittleEndian(header[18..]), (uint)rest.Length / 4);
        rest = rest[(buckets * 4)..];
        int entries = (int)Math.Min(BinaryPrimitives.ReadUInt32LittleEndian(header[22..]), (uint)rest.Length / 8);
        var bucketValues = new int[buckets];
        for (int i = 0; i < buckets; i++)
            bucketValues[i] = I32(d, HeaderSize + i * 4);
        var hashCodes = new int[entries];
        var nexts = new int[entries];
        int entryStart = HeaderSize + buckets * 4;
        for (int i = 0; i < entries; i++)
        {
            hashCodes[i] = I32(d, entryStart + i * 8);
            nexts[i] = I32(d, entryStart + i * 8 + 4);
        }
        ReadOnlySpan<byte> blankBits = d.Length > entryStart + entries * 8 ? d[(entryStart + entries * 8)..] : [];
        var blank = new List<int>();
        for (int i = 0; i < entries && i / 8 < blankBits.Length; i++)
            if ((blankBits[i / 8] & (1 << (i % 8))) != 0)
                blank.Add(i);
        return new HashTableImage
        {
            Layout = layout,
            Buckets = bucketValues,
            HashCodes = hashCodes,
            Nexts = nexts,
            Blank = BitSetView.FromIndices(entries, blank),
            Count = count,
            FreeList = freeList,
            FreeCount = layout.HighWaterIsLastIndex ? null : freeCount,
            LastIndex = layout.HighWaterIsLastIndex ? lastIndex : null,
            KeysEqual = (header[1] & KeysEqualByHash) != 0 ? pairs => [.. pairs.Select(p => hashCodes[p.A] == hashCodes[p.B])] : null,
        };
    }

    public static byte[] Encode(HashTableImage t, bool keysEqualByHash = false)
    {
        var d = new byte[HeaderSize + t.Buckets.Length * 4 + t.EntriesLength * 8 + (t.EntriesLength + 7) / 8];
        d[0] = (byte)Array.IndexOf(Layouts, Layouts.First(l => l.Name == t.Layout.Name));
        d[1] = keysEqualByHash ? KeysEqualByHash : (byte)0;
        BinaryPrimitives.WriteInt32LittleEndian(d.AsSpan(2), t.Count);
        BinaryPrimitives.WriteInt32LittleEndian(d.AsSpan(6), t.FreeList);
        BinaryPrimitives.WriteInt32LittleEndian(d.AsSpan(10), t.FreeCount ?? 0);
        BinaryPrimitives.WriteInt32LittleEndian(d.AsSpan(14), t.LastIndex ?? 0);
        BinaryPrimitives.WriteInt32LittleEndian(d.AsSpan(18), t.Buckets.Length);
        BinaryPrimitives.WriteInt32LittleEndian(d.AsSpan(22), t.EntriesLength);
        for (int i = 0; i < t.Buckets.Length; i++)
            BinaryPrimitives.WriteInt32LittleEndian(d.AsSpan(HeaderSize + i * 4), t.Buckets[i]);
        int entryStart = HeaderSize + t.Buckets.Length * 4;
        for (int i = 0; i < t.EntriesLength; i++)
        {
            BinaryPrimitives.WriteInt32LittleEndian(d.AsSpan(entryStart + i * 8), t.HashCodes[i]);
            BinaryPrimitives.WriteInt32LittleEndian(d.AsSpan(entryStart + i * 8 + 4), t.Nexts[i]);
            if (t.Blank?[i] == true)
                d[entryStart + t.EntriesLength * 8 + i / 8] |= (byte)(1 << (i % 8));
        }
        return d;
    }

    private static int I32(ReadOnlySpan<byte> d, int offset) => offset + 4 <= d.Length ? BinaryPrimitives.ReadInt32LittleEndian(d[offset..]) : 0;
}
