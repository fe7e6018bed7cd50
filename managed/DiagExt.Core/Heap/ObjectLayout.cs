using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Heap;

/// <summary>
/// What the heap walk needs of one MethodTable, asked of ClrMD once: the type, how to size its objects, and which
/// interests want them. Size = base size + component size x the length at offset 8, rounded up to 8 bytes, at least
/// the minimum object size (bench/RESULTS.md, docs/design/internals.md, section 5).
/// </summary>
internal sealed class ObjectLayout(ClrType type, uint baseSize, uint componentSize, int[] wantedBy)
{
    public const int MinimumObjectSize = 24;

    public ClrType Type { get; } = type;

    public int[] WantedBy { get; } = wantedBy;

    public static ObjectLayout For(ClrType type, ClrHeap heap, int[] wantedBy)
    {
        uint componentSize = (uint)Math.Max(type.ComponentSize, 0);
        uint baseSize = (uint)Math.Max(type.StaticSize, 0);
        // The DAC reports System.String's base size without its terminating char (20 on 64-bit, the runtime's is 22):
        // without it every string after the first ends 2 bytes early and the walk of its segment breaks.
        if (heap.StringType is { } stringType && stringType.MethodTable == type.MethodTable)
            baseSize += componentSize;
        return new ObjectLayout(type, baseSize, componentSize, wantedBy);
    }

    /// <summary>The object's size in the heap, given the element count read at offset 8 (ignored without components).</summary>
    public ulong SizeOf(uint length) => Math.Max((ClaimedSize(length) + 7) & ~7UL, MinimumObjectSize);

    /// <summary>The size before alignment, as ClrMD reports it (and the heap-damage note quotes it).</summary>
    public ulong ClaimedSize(uint length) => componentSize == 0 ? baseSize : baseSize + (ulong)componentSize * length;
}
