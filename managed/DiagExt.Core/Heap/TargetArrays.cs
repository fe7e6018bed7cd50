using System.Buffers;
using System.Runtime.InteropServices;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Heap;

/// <summary>
/// Bulk reads of single-dimension arrays straight from target memory: one read per array (or per chunk),
/// never one ClrMD call per element. Lengths are checked against a limit before anything is allocated.
/// </summary>
public static class TargetArrays
{
    /// <summary>Reads the length word of an SZ array (after its MethodTable pointer), or -1 if unreadable.</summary>
    public static int ReadLength(Target target, ulong array)
    {
        Span<byte> b = stackalloc byte[4];
        return target.ReadMemory(array + (ulong)target.PointerSize, b) == 4 ? BitConverter.ToInt32(b) : -1;
    }

    /// <summary>Address of element 0: MethodTable pointer plus the length word padded to a pointer.</summary>
    public static ulong DataAddress(Target target, ulong array) => array + 2 * (ulong)target.PointerSize;

    /// <summary>How many elements of this size one chunk of <see cref="ReadInChunks(Target, ulong, int, int, Action{ReadOnlySpan{byte}, int})"/> holds (1 MB of them).</summary>
    public static int ElementsPerChunk(int elementSize) => Math.Max(1, (1 << 20) / Math.Max(1, elementSize));

    /// <summary>Reads an int[] of <paramref name="length"/> elements; null if the memory is not all there.</summary>
    public static int[]? ReadInt32s(Target target, ulong array, int length)
    {
        int[] values = BigArrays.Uninitialized<int>(length);
        Span<byte> bytes = MemoryMarshal.AsBytes(values.AsSpan());
        return target.ReadMemory(DataAddress(target, array), bytes) == bytes.Length ? values : null;
    }

    /// <summary>Reads an array of object references or native pointers; null if the memory is not all there.</summary>
    public static ulong[]? ReadPointers(Target target, ulong array, int length)
    {
        int size = target.PointerSize;
        var bytes = new byte[checked(length * size)];
        if (target.ReadMemory(DataAddress(target, array), bytes) != bytes.Length)
            return null;
        var values = new ulong[length];
        for (int i = 0; i < length; i++)
            values[i] = size == 8 ? BitConverter.ToUInt64(bytes, i * 8) : BitConverter.ToUInt32(bytes, i * 4);
        return values;
    }

    /// <summary>
    /// Streams the elements of a value-type array in chunks (bounded memory for huge arrays), handing each
    /// chunk's raw bytes and the index of its first element to <paramref name="onChunk"/>. Returns false if
    /// part of the array could not be read.
    /// </summary>
    public static bool ReadInChunks(Target target, ulong array, int length, int elementSize, Action<ReadOnlySpan<byte>, int> onChunk) =>
        ReadInChunks(target, array, 0, length, elementSize, onChunk);

    /// <summary>As above, for elements <paramref name="from"/> to <paramref name="to"/> - 1 only (a stretch another thread does not read).</summary>
    public static bool ReadInChunks(Target target, ulong array, int from, int to, int elementSize, Action<ReadOnlySpan<byte>, int> onChunk)
    {
        int perChunk = ElementsPerChunk(elementSize);
        byte[] buffer = ArrayPool<byte>.Shared.Rent(perChunk * elementSize);
        try
        {
            ulong address = DataAddress(target, array);
            for (int first = from; first < to; first += perChunk)
            {
                int n = Math.Min(perChunk, to - first);
                Span<byte> span = buffer.AsSpan(0, n * elementSize);
                if (target.ReadMemory(address + (ulong)first * (ulong)elementSize, span) != span.Length)
                    return false;
                onChunk(span, first);
            }
            return true;
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }
}
