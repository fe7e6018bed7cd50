namespace DiagExt.Fuzz.Engine;

/// <summary>What a field of a structure means, which decides the values worth trying in it.</summary>
public enum FieldKind
{
    /// <summary>A number of entries (streams, threads, program headers, exports).</summary>
    Count,

    /// <summary>A size in bytes.</summary>
    Length,

    /// <summary>A file offset or an RVA: where something else lies.</summary>
    Offset,

    /// <summary>A target address.</summary>
    Pointer,

    /// <summary>An index into an array of the same input (a hash table's next, a bucket).</summary>
    Index,

    /// <summary>A type, flag or id: any value is as good as another.</summary>
    Tag,
}

/// <summary>
/// One little-endian integer field of the input that a reader trusts. <see cref="Self"/> is the value that makes
/// it point at its own structure (the structure's RVA, address or index): a pointer into itself.
/// </summary>
public readonly record struct Field(int Offset, int Size, FieldKind Kind, ulong Self = 0);
