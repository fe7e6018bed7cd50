using System.Globalization;

namespace DiagExt.Core.Heap;

/// <summary>
/// Damage the heap walk met and stepped over: data, not an exception (as ClrMD's ObjectCorruption). Its text is
/// only in <see cref="ToString"/>, where a detector's note shows it.
/// </summary>
public abstract record HeapDamage
{
    /// <summary>The last object of a segment claims a size past the segment's end: objects after it were not checked.</summary>
    public sealed record ObjectPastSegment(ulong Address, string? TypeName, ulong Size, ulong SegmentEnd) : HeapDamage
    {
        public override string ToString() => string.Create(CultureInfo.InvariantCulture,
            $"the object at {(Address)Address} ({TypeName}) claims {Size:N0} bytes, past the end of its heap segment ({(Address)SegmentEnd}): the objects after it in that segment were not checked");
    }

    /// <summary>ClrMD's own walk of a segment failed on corrupt runtime data after <see cref="After"/>: the rest of that segment was not checked.</summary>
    public sealed record WalkStopped(ulong After, ulong SegmentEnd, string Problem) : HeapDamage
    {
        public override string ToString() =>
            $"the heap walk stopped after {(Address)After} ({Problem}): the objects from there to the end of its heap segment ({(Address)SegmentEnd}) were not checked";
    }

    /// <summary>A type ClrMD cannot read: its objects were not checked.</summary>
    public sealed record UnreadableType(ulong MethodTable, string Problem) : HeapDamage
    {
        public override string ToString() => $"the type with method table {(Address)MethodTable}: {Problem}; its objects were not checked";
    }
}
