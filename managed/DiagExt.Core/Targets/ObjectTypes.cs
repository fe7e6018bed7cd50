using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Targets;

/// <summary>
/// The type of what may be an object, asked of the DAC only when its MethodTable word looks like one. A word taken
/// from a stack or a field can point inside a heap segment but not at an object's start; its "MethodTable" is then
/// whatever lies there, and the DAC's GetMethodTableData faults on some of those values (a SIGSEGV in
/// libmscordaccore, not an exception: seen on a core of a busy socket client, where such a word pointed at another
/// heap address). Method tables live in loader heaps, never in the GC heap, and have a sane base size.
/// </summary>
public static class ObjectTypes
{
    /// <summary>The largest base size a real type has is far below this (a struct of a few hundred KB at most).</summary>
    private const uint MaxBaseSize = 64 * 1024 * 1024;

    /// <summary>The object's type; null when the address is no object (outside the heap, or its MethodTable implausible) or the type cannot be read.</summary>
    public static ClrType? Of(ClrHeap heap, ulong address)
    {
        if (address == 0 || heap.GetSegmentByAddress(address) is null || !PlausibleMethodTable(heap, address))
            return null;
        try
        {
            return heap.GetObjectType(address);
        }
        catch (Exception e) when (CorruptType.Is(e))
        {
            return null;
        }
    }

    /// <summary>
    /// Whether the word at <paramref name="address"/> can be a MethodTable: non-zero once the GC's mark bits are
    /// masked, pointer-aligned, outside every GC segment, readable, with a base size of at least a header and a MethodTable pointer
    /// (MethodTable: DWORD flags, DWORD base size, ...).
    /// </summary>
    public static bool PlausibleMethodTable(ClrHeap heap, ulong address)
    {
        IDataReader reader = heap.Runtime.DataTarget.DataReader;
        int pointerSize = reader.PointerSize;
        if (!reader.ReadPointer(address, out ulong word))
            return false;
        ulong methodTable = word & ~3UL;
        if (methodTable == 0 || (methodTable & (ulong)(pointerSize - 1)) != 0 || heap.GetSegmentByAddress(methodTable) is not null)
            return false;
        if (!reader.Read(methodTable + 4, out uint baseSize))
            return false;
        // Not tested for alignment: a string's base size is not a multiple of the pointer size.
        return baseSize >= (uint)(2 * pointerSize) && baseSize < MaxBaseSize;
    }
}
