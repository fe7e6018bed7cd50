using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Heap;

/// <summary>
/// Whether a reference a managed object holds really is an array of the expected type that fits in its GC heap
/// segment, before anything is allocated for its elements. A hostile or corrupt heap can point a field at another
/// object, outside the heap, or at an array whose length word claims gigabytes.
/// </summary>
public static class HeapArrayCheck
{
    /// <returns>Null when the array is sound; otherwise what is wrong with it, as a phrase ("points outside the GC heap").</returns>
    public static string? Problem(ClrHeap heap, ulong array, int length, int elementSize, ulong expectedMethodTable, string expectedName)
    {
        ClrSegment? segment = heap.GetSegmentByAddress(array);
        if (segment is null)
            return $"points at {(Address)array}, outside the GC heap";
        ClrType? type = ObjectTypes.Of(heap, array);
        if (type is null || (expectedMethodTable != 0 ? type.MethodTable != expectedMethodTable : type.Name != expectedName))
            return $"points at {(Address)array}, {(type?.Name is { } name ? $"a {name}" : "no object")}, not a {expectedName}";
        ulong bytes = 2UL * (ulong)heap.Runtime.DataTarget.DataReader.PointerSize + (ulong)Math.Max(0, length) * (ulong)elementSize;
        if (length < 0 || bytes > segment.End - array)
            return $"is a {expectedName} claiming {length:N0} elements, more than its heap segment holds";
        return null;
    }
}
