using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.DictCycle;

/// <summary>
/// Where one Dictionary/HashSet instantiation keeps its fields, and its Entry layout, taken from the
/// runtime's own type (key and value sizes vary per instantiation, so nothing is hard-coded).
/// </summary>
internal sealed record HashTableShape
{
    public required HashTableLayout Layout { get; init; }

    public required int BucketsOffset { get; init; }

    public required int EntriesOffset { get; init; }

    public required int CountOffset { get; init; }

    public required int FreeListOffset { get; init; }

    /// <summary>-1 when the layout has no freeCount (legacy HashSet).</summary>
    public required int FreeCountOffset { get; init; }

    /// <summary>-1 unless <see cref="HashTableLayout.HighWaterIsLastIndex"/>.</summary>
    public required int LastIndexOffset { get; init; }

    /// <summary>The MethodTable of this instantiation's Entry[] (every instance's entry array has it).</summary>
    public ulong EntryArrayMethodTable { get; init; }

    /// <summary>"Entry[]" as the runtime names it, for messages.</summary>
    public string EntryArrayName { get; init; } = "Entry[]";

    /// <summary>Bytes per Entry in the array.</summary>
    public required int EntrySize { get; init; }

    public required int HashCodeOffset { get; init; }

    public required int NextOffset { get; init; }

    /// <summary>Offset and size of the key (Dictionary) or value (HashSet) inside an Entry, to spot never-written entries.</summary>
    public required int KeyOffset { get; init; }

    public required int KeySize { get; init; }

    /// <summary>The key is an object reference (compared by reference, or by contents for strings).</summary>
    public required bool KeyIsReference { get; init; }

    /// <summary>
    /// Reads the shape from a type and the type of one instance's entry array (the field's declared type
    /// is the open generic Entry[], whose fields ClrMD cannot lay out). Returns null when the fields match
    /// no known layout.
    /// </summary>
    public static HashTableShape? TryCreate(ClrType type, ClrType entryArrayType)
    {
        ClrInstanceField? buckets = Field(type, "_buckets", "buckets", "m_buckets");
        ClrInstanceField? entries = Field(type, "_entries", "entries", "_slots", "m_slots");
        ClrInstanceField? count = Field(type, "_count", "count", "m_count");
        ClrInstanceField? freeList = Field(type, "_freeList", "freeList", "m_freeList");
        if (buckets is null || entries is null || count is null || freeList is null)
            return null;
        ClrInstanceField? freeCount = Field(type, "_freeCount", "freeCount");
        ClrInstanceField? lastIndex = Field(type, "_lastIndex", "m_lastIndex");

        ClrType? entryType = entryArrayType.ComponentType;
        if (entryType is null || !entryArrayType.IsArray)
            return null;
        ClrInstanceField? hashCode = Field(entryType, "hashCode", "HashCode");
        ClrInstanceField? next = Field(entryType, "next", "Next");
        ClrInstanceField? key = Field(entryType, "key", "Key", "value", "Value");
        int entrySize = entryArrayType.ComponentSize;
        if (hashCode is null || next is null || key is null || entrySize <= 0)
            return null;

        HashTableLayout? layout = Classify(buckets.Name!, lastIndex is not null, freeCount is not null, hashCode);
        if (layout is null)
            return null;

        return new HashTableShape
        {
            Layout = layout,
            BucketsOffset = buckets.Offset,
            EntriesOffset = entries.Offset,
            CountOffset = count.Offset,
            FreeListOffset = freeList.Offset,
            FreeCountOffset = freeCount?.Offset ?? -1,
            LastIndexOffset = lastIndex?.Offset ?? -1,
            EntryArrayMethodTable = entryArrayType.MethodTable,
            EntryArrayName = entryArrayType.Name ?? "Entry[]",
            EntrySize = entrySize,
            HashCodeOffset = hashCode.Offset,
            NextOffset = next.Offset,
            KeyOffset = key.Offset,
            KeySize = Math.Clamp(key.Size, 0, entrySize - key.Offset),
            KeyIsReference = key.IsObjectReference,
        };
    }

    /// <summary>The entry array field (any runtime's name), to find an instance's array type.</summary>
    public static ClrInstanceField? EntriesField(ClrType type) => Field(type, "_entries", "entries", "_slots", "m_slots");

    private static HashTableLayout? Classify(string bucketsName, bool hasLastIndex, bool hasFreeCount, ClrInstanceField hashCode)
    {
        if (hasLastIndex)
            return bucketsName == "m_buckets" ? HashTableLayout.FrameworkHashSet : HashTableLayout.CoreSlotsHashSet;
        if (!hasFreeCount)
            return null;
        if (hashCode.Name == "HashCode")
            return HashTableLayout.ModernHashSet;
        if (bucketsName == "buckets")
            return HashTableLayout.FrameworkDictionary;
        // Core 2.1 kept "int hashCode" (live >= 0); Core 3.0 made it uint and moved liveness to next.
        return hashCode.ElementType == ClrElementType.UInt32 ? HashTableLayout.ModernDictionary : HashTableLayout.Core21Dictionary;
    }

    private static ClrInstanceField? Field(ClrType type, params string[] names)
    {
        foreach (ClrInstanceField field in type.Fields)
            if (field.Name is { } name && Array.IndexOf(names, name) >= 0)
                return field;
        return null;
    }
}
