using System.Buffers.Binary;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using DiagExt.Core.Heap;
using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.DictCycle;

/// <summary>
/// Tells which entry pairs hold equal keys in the target: equal bytes (same value, same reference), or two
/// strings with the same characters. Custom Equals cannot be run on a dump, so other keys compare by reference.
/// All pairs of a table are answered in one batch: keys, then strings, are read in address order through a
/// <see cref="TargetReadWindow"/>, so a 5-million-entry table with 100,000 equal hash codes costs a few
/// thousand reads, not hundreds of thousands. Plain arrays throughout: no per-key objects.
/// </summary>
internal sealed class EntryKeyComparer(Target target, ClrHeap heap, ulong entriesData, HashTableShape shape)
{
    private const int MaxStringCompare = 64 * 1024;
    private const int MaxKeyBytes = 64;

    /// <summary>Keys read in two halves side by side from this many on (see <see cref="InParts"/>).</summary>
    private const int ParallelFrom = 1 << 14;

    /// <summary>Keys read in the entries' order while their addresses descend at most once in this many.</summary>
    private const int SortFromDescentsPer = 256;

    private readonly int _keySize = Math.Min(shape.KeySize, MaxKeyBytes);

    [MethodImpl(MethodImplOptions.AggressiveOptimization)] // one call per table, loops over every candidate pair
    public bool[] Equal(IReadOnlyList<(int A, int B)> pairs)
    {
        var equal = new bool[pairs.Count];
        (int[] indices, int[] slotOf) = DistinctIndices(pairs);
        byte[] keys = ReadKeys(indices, out bool[] readable);
        ReadOnlySpan<byte> Key(int slot) => keys.AsSpan(slot * _keySize, _keySize);

        bool anyStrings = false;
        for (int p = 0; p < pairs.Count; p++)
        {
            int a = slotOf[2 * p], b = slotOf[2 * p + 1];
            if (!readable[a] || !readable[b])
                continue;
            if (Key(a).SequenceEqual(Key(b)))
                equal[p] = !shape.KeyIsReference || Key(a).ContainsAnyExcept((byte)0); // two null keys are blanks, not duplicates
            else
                anyStrings |= shape.KeyIsReference; // different objects: equal only if both are strings with the same characters
        }
        if (!anyStrings)
            return equal;

        StringPrint[] prints = FingerprintStrings(indices.Length, slot => readable[slot] ? ToPointer(Key(slot)) : 0);
        for (int p = 0; p < pairs.Count; p++)
        {
            int a = slotOf[2 * p], b = slotOf[2 * p + 1];
            if (!equal[p] && prints[a].IsString && prints[a] == prints[b])
                equal[p] = SameCharacters(ToPointer(Key(a)), ToPointer(Key(b)), prints[a].Length); // equal prints: confirm on the characters
        }
        return equal;
    }

    /// <summary>
    /// The distinct entry indices of the pairs, ascending, and for each pair end (2p, 2p+1) its slot in that list:
    /// a bit per entry and the count of bits before each word (a rank), so no sort and no search per pair.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)] // one call per table, loops over every candidate pair
    private static (int[] Indices, int[] SlotOf) DistinctIndices(IReadOnlyList<(int A, int B)> pairs)
    {
        // Indices are the entries' own positions (never negative): the bits cover up to the largest.
        ReadOnlySpan<(int A, int B)> ends = pairs is List<(int A, int B)> list ? CollectionsMarshal.AsSpan(list) : [.. pairs];
        int largest = 0;
        foreach (var (a, b) in ends)
            largest = Math.Max(largest, Math.Max(a, b));
        var words = new ulong[(largest >> 6) + 1];
        foreach (var (a, b) in ends)
        {
            words[a >> 6] |= 1UL << a;
            words[b >> 6] |= 1UL << b;
        }
        var before = new int[words.Length];
        int total = 0;
        for (int w = 0; w < words.Length; w++)
        {
            before[w] = total;
            total += BitOperations.PopCount(words[w]);
        }
        var indices = new int[total];
        for (int w = 0, k = 0; w < words.Length; w++)
            for (ulong bits = words[w]; bits != 0; bits &= bits - 1)
                indices[k++] = (w << 6) + BitOperations.TrailingZeroCount(bits);
        var slotOf = new int[ends.Length * 2];
        for (int p = 0; p < ends.Length; p++)
        {
            slotOf[2 * p] = Rank(ends[p].A);
            slotOf[2 * p + 1] = Rank(ends[p].B);
        }
        return (indices, slotOf);

        int Rank(int index) => before[index >> 6] + BitOperations.PopCount(words[index >> 6] & ((1UL << index) - 1));
    }

    /// <summary>The key bytes of each entry, in index (hence address) order.</summary>
    private byte[] ReadKeys(int[] indices, out bool[] readable)
    {
        var keys = new byte[indices.Length * _keySize];
        var ok = new bool[indices.Length];
        InParts(indices.Length, (from, to) => ReadKeyRange(indices, from, to, keys, ok));
        readable = ok;
        return keys;
    }

    /// <summary>Keys <paramref name="from"/> to <paramref name="to"/> of <see cref="ReadKeys"/>, through a window of their own.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)] // loops over every distinct key of a batch
    private void ReadKeyRange(int[] indices, int from, int to, byte[] keys, bool[] readable)
    {
        var window = new TargetReadWindow(target);
        for (int k = from; k < to; k++)
            readable[k] = window.Read(entriesData + (ulong)indices[k] * (ulong)shape.EntrySize + (ulong)shape.KeyOffset, keys.AsSpan(k * _keySize, _keySize));
    }

    /// <summary>Length and a hash of the characters of each slot's key when it is a string; read in address order, or nearly.</summary>
    private StringPrint[] FingerprintStrings(int slots, Func<int, ulong> pointerOf)
    {
        // An object starts at a multiple of the pointer size: other values are not strings and are left unread.
        var pointers = new ulong[slots];
        for (int slot = 0; slot < slots; slot++)
            pointers[slot] = pointerOf(slot) is var p && p % (ulong)target.PointerSize == 0 ? p : 0;
        int[] order = InAddressOrder(pointers);
        var prints = new StringPrint[slots];
        InParts(order.Length, (from, to) => FingerprintRange(pointers, order.AsSpan(from, to - from), prints));
        return prints;
    }

    /// <summary>The prints of the slots in <paramref name="order"/>, read forward through a window of their own.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)] // loops over every distinct key of a batch
    private void FingerprintRange(ulong[] pointers, ReadOnlySpan<int> order, StringPrint[] prints)
    {
        ulong stringType = heap.StringType.MethodTable;
        var window = new TargetReadWindow(target);
        Span<byte> header = stackalloc byte[target.PointerSize + 4];
        byte[] chars = [];
        StringPrint last = default;
        for (int k = 0; k < order.Length; k++)
        {
            ulong address = pointers[order[k]];
            if (k > 0 && address == pointers[order[k - 1]])
            {
                prints[order[k]] = last; // the same object as the previous slot
                continue;
            }
            last = default;
            // Bit 0 of the MethodTable word is the GC mark bit.
            if (window.Read(address, header) && (ToPointer(header) & ~1UL) == stringType)
            {
                int length = BinaryPrimitives.ReadInt32LittleEndian(header[target.PointerSize..]);
                if (length is >= 0 and <= MaxStringCompare)
                {
                    if (chars.Length < length * 2)
                        chars = new byte[Math.Max(length * 2, 2 * chars.Length)];
                    Span<byte> text = chars.AsSpan(0, length * 2);
                    if (window.Read(address + (ulong)header.Length, text))
                        last = new StringPrint(true, length, string.GetHashCode(MemoryMarshal.Cast<byte, char>(text)));
                }
            }
            prints[order[k]] = last;
        }
    }

    /// <summary>
    /// Runs <paramref name="body"/> over [0, count) in one part, or in two halves side by side when the target may be read
    /// from two threads and the batch repays a thread: the reads are mostly the kernel copying the dump's pages.
    /// </summary>
    private void InParts(int count, Action<int, int> body)
    {
        if (count < ParallelFrom || target.Workers < 2)
        {
            body(0, count);
            return;
        }
        int half = count / 2;
        Parallel.Invoke(() => body(0, half), () => body(half, count)); // one half inline: no wait on a starved pool
    }

    /// <summary>
    /// The slots with an address (not 0), in address order, or nearly. Slots follow the entries' order, and a table's keys
    /// are mostly allocated in the order they were added (the GC keeps that order), so that order usually serves: the
    /// bench's 5 M-entry table had 10 descents in 202,000 keys. Each descent costs the read window at most two refills;
    /// beyond one in <see cref="SortFromDescentsPer"/> the slots are sorted: (address - lowest) / pointer size and the slot
    /// packed in one long and radix sorted (a heap's objects lie within a few hundred GB, far inside the bits left).
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)] // loops over every distinct key of a batch
    private int[] InAddressOrder(ulong[] pointers)
    {
        ulong low = ulong.MaxValue, high = 0, previous = 0;
        int count = 0, descents = 0;
        foreach (ulong pointer in pointers)
        {
            if (pointer == 0)
                continue;
            (low, high, count) = (Math.Min(low, pointer), Math.Max(high, pointer), count + 1);
            descents += pointer < previous ? 1 : 0;
            previous = pointer;
        }
        var order = new int[count];
        if (count == 0)
            return order;
        if (descents <= count / SortFromDescentsPer)
        {
            for (int slot = 0, k = 0; slot < pointers.Length; slot++)
                if (pointers[slot] != 0)
                    order[k++] = slot;
            return order;
        }
        int slotBits = BitOperations.Log2((uint)pointers.Length) + 1;
        ulong scale = (ulong)target.PointerSize;
        if ((high - low) / scale >> (63 - slotBits) != 0)
        {
            // Addresses too far apart to share a long with a slot (no runtime's heap is): the library's sort.
            var addresses = new ulong[count];
            for (int slot = 0, k = 0; slot < pointers.Length; slot++)
                if (pointers[slot] != 0)
                    (addresses[k], order[k++]) = (pointers[slot], slot);
            Array.Sort(addresses, order);
            return order;
        }
        var packed = new long[count];
        for (int slot = 0, k = 0; slot < pointers.Length; slot++)
            if (pointers[slot] != 0)
                packed[k++] = (long)((pointers[slot] - low) / scale << slotBits) | (uint)slot;
        RadixSort.Sort(packed);
        long slotMask = (1L << slotBits) - 1;
        for (int k = 0; k < count; k++)
            order[k] = (int)(packed[k] & slotMask);
        return order;
    }

    private bool SameCharacters(ulong a, ulong b, int length)
    {
        // String characters follow the length word, right after the MethodTable pointer.
        ulong offset = (ulong)target.PointerSize + 4;
        var charsA = new byte[length * 2];
        var charsB = new byte[length * 2];
        return target.ReadMemory(a + offset, charsA) == charsA.Length
            && target.ReadMemory(b + offset, charsB) == charsB.Length
            && charsA.AsSpan().SequenceEqual(charsB);
    }

    private ulong ToPointer(ReadOnlySpan<byte> bytes) =>
        target.PointerSize == 8 ? BinaryPrimitives.ReadUInt64LittleEndian(bytes) : BinaryPrimitives.ReadUInt32LittleEndian(bytes);

    /// <summary>A string key's length and character hash; default for keys that are not strings.</summary>
    private readonly record struct StringPrint(bool IsString, int Length, int Hash);
}
