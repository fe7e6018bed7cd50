using System.Buffers.Binary;
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
    /// The distinct entry indices of the pairs, ascending, and for each pair end (2p, 2p+1) its slot in that list.
    /// One sort of (index, end) packed in a long, no search per pair.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)] // one call per table, loops over every candidate pair
    private static (int[] Indices, int[] SlotOf) DistinctIndices(IReadOnlyList<(int A, int B)> pairs)
    {
        var ends = new long[pairs.Count * 2];
        for (int p = 0; p < pairs.Count; p++)
        {
            ends[2 * p] = ((long)pairs[p].A << 32) | (uint)(2 * p);
            ends[2 * p + 1] = ((long)pairs[p].B << 32) | (uint)(2 * p + 1);
        }
        RadixSort.Sort(ends);
        var indices = new List<int>();
        var slotOf = new int[ends.Length];
        foreach (long end in ends)
        {
            int index = (int)(end >> 32);
            if (indices.Count == 0 || indices[^1] != index)
                indices.Add(index);
            slotOf[(int)end] = indices.Count - 1;
        }
        return ([.. indices], slotOf);
    }

    /// <summary>The key bytes of each entry, in index (hence address) order.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)] // one call per table, loops over every candidate pair
    private byte[] ReadKeys(int[] indices, out bool[] readable)
    {
        var keys = new byte[indices.Length * _keySize];
        readable = new bool[indices.Length];
        var window = new TargetReadWindow(target);
        for (int k = 0; k < indices.Length; k++)
            readable[k] = window.Read(entriesData + (ulong)indices[k] * (ulong)shape.EntrySize + (ulong)shape.KeyOffset, keys.AsSpan(k * _keySize, _keySize));
        return keys;
    }

    /// <summary>Length and a hash of the characters of each slot's key when it is a string; read in address order.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)] // one call per table, loops over every candidate pair
    private StringPrint[] FingerprintStrings(int slots, Func<int, ulong> pointerOf)
    {
        var pointers = new ulong[slots];
        var order = new int[slots];
        for (int slot = 0; slot < slots; slot++)
            (pointers[slot], order[slot]) = (pointerOf(slot), slot);
        Array.Sort(pointers, order);

        var prints = new StringPrint[slots];
        ulong stringType = heap.StringType.MethodTable;
        var window = new TargetReadWindow(target);
        Span<byte> header = stackalloc byte[target.PointerSize + 4];
        byte[] chars = [];
        StringPrint last = default;
        for (int k = 0; k < slots; k++)
        {
            ulong address = pointers[k];
            if (k > 0 && address == pointers[k - 1])
            {
                prints[order[k]] = last; // the same object as the previous slot
                continue;
            }
            last = default;
            // Bit 0 of the MethodTable word is the GC mark bit.
            if (address != 0 && window.Read(address, header) && (ToPointer(header) & ~1UL) == stringType)
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
        return prints;
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
