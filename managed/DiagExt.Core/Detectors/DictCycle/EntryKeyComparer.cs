using DiagExt.Core.Heap;
using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.DictCycle;

/// <summary>
/// Compares the keys of two entries in the target: equal bytes (same value, same reference), or two
/// strings with the same characters. Custom Equals cannot be run on a dump, so other keys compare by reference.
/// </summary>
internal sealed class EntryKeyComparer(Target target, ClrHeap heap, ulong entriesData, HashTableShape shape)
{
    private const int MaxStringCompare = 64 * 1024;

    public bool Equal(int a, int b)
    {
        Span<byte> keyA = stackalloc byte[Math.Min(shape.KeySize, 64)];
        Span<byte> keyB = stackalloc byte[keyA.Length];
        if (!ReadKey(a, keyA) || !ReadKey(b, keyB))
            return false;
        if (keyA.SequenceEqual(keyB))
            return !shape.KeyIsReference || keyA.ContainsAnyExcept((byte)0); // two null keys are blanks, not duplicates
        if (!shape.KeyIsReference)
            return false;
        ulong pa = ToPointer(keyA), pb = ToPointer(keyB);
        return pa != 0 && pb != 0 && heap.GetObjectType(pa)?.IsString == true && heap.GetObjectType(pb)?.IsString == true && SameString(pa, pb);
    }

    private bool ReadKey(int index, Span<byte> key) =>
        target.ReadMemory(entriesData + (ulong)index * (ulong)shape.EntrySize + (ulong)shape.KeyOffset, key) == key.Length;

    private ulong ToPointer(ReadOnlySpan<byte> key) =>
        target.PointerSize == 8 ? BitConverter.ToUInt64(key) : BitConverter.ToUInt32(key);

    private bool SameString(ulong a, ulong b)
    {
        int lengthA = TargetArrays.ReadLength(target, a), lengthB = TargetArrays.ReadLength(target, b);
        if (lengthA != lengthB || lengthA < 0 || lengthA > MaxStringCompare)
            return false;
        // String characters follow the length word, right after the MethodTable pointer.
        ulong offset = (ulong)target.PointerSize + 4;
        var charsA = new byte[lengthA * 2];
        var charsB = new byte[lengthB * 2];
        return target.ReadMemory(a + offset, charsA) == charsA.Length
            && target.ReadMemory(b + offset, charsB) == charsB.Length
            && charsA.AsSpan().SequenceEqual(charsB);
    }
}
