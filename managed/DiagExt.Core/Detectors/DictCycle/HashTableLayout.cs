using System.Runtime.CompilerServices;

namespace DiagExt.Core.Detectors.DictCycle;

/// <summary>
/// How one generation of Dictionary/HashSet encodes its chains (docs/design/internals.md, section 1).
/// The classifier reads only these facts, so one algorithm serves every runtime.
/// </summary>
public sealed record HashTableLayout
{
    /// <summary>.NET Framework 4.x and .NET Core 2.0 Dictionary: buckets 0-based (-1 empty), free entries have hashCode -1.</summary>
    public static HashTableLayout FrameworkDictionary { get; } = new()
    {
        Name = ".NET Framework / .NET Core 2.0 Dictionary",
        OneBasedBuckets = false,
        LiveByHashCode = true,
        EncodedFreeList = false,
        HighWaterIsLastIndex = false,
        LookupsThrowOnCycle = false,
    };

    /// <summary>.NET Core 2.1/2.2 Dictionary: 1-based buckets; FindEntry/TryInsert throw on a cycle, Remove spins.</summary>
    public static HashTableLayout Core21Dictionary { get; } = FrameworkDictionary with
    {
        Name = ".NET Core 2.1/2.2 Dictionary",
        OneBasedBuckets = true,
        LookupsThrowOnCycle = true,
    };

    /// <summary>.NET Core 3.x and .NET 5-10 Dictionary: Entry{next, uint hashCode}; live iff next >= -1; free next = -3 - index.</summary>
    public static HashTableLayout ModernDictionary { get; } = Core21Dictionary with
    {
        Name = ".NET Core 3.0+ / .NET 5+ Dictionary",
        LiveByHashCode = false,
        EncodedFreeList = true,
    };

    /// <summary>.NET Framework HashSet (System.Core): m_slots, high-water mark m_lastIndex, no free count; lookups loop forever.</summary>
    public static HashTableLayout FrameworkHashSet { get; } = FrameworkDictionary with
    {
        Name = ".NET Framework HashSet",
        OneBasedBuckets = true,
        HighWaterIsLastIndex = true,
    };

    /// <summary>
    /// .NET Core HashSet before .NET 5: the same slots design with "_" names. Its lookups throw on a loop
    /// (seen on .NET Core 3.1.3: samples/DictShapes measures it).
    /// </summary>
    public static HashTableLayout CoreSlotsHashSet { get; } = FrameworkHashSet with
    {
        Name = ".NET Core 2.x/3.x HashSet",
        LookupsThrowOnCycle = true,
    };

    /// <summary>.NET 5+ HashSet: Dictionary's design with Entry{HashCode, Next, Value}.</summary>
    public static HashTableLayout ModernHashSet { get; } = ModernDictionary with { Name = ".NET 5+ HashSet" };

    public required string Name { get; init; }

    /// <summary>Buckets hold index + 1 (0 = empty) instead of the index (-1 = empty).</summary>
    public required bool OneBasedBuckets { get; init; }

    /// <summary>An entry is live when hashCode >= 0 (old layouts) rather than when next >= -1.</summary>
    public required bool LiveByHashCode { get; init; }

    /// <summary>Whether an entry with these raw fields is free (removed or never used) rather than live.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)] // once per entry in the classifier's passes over millions of entries
    public bool IsFree(int hashCode, int next) => LiveByHashCode ? hashCode < 0 : next < -1;

    /// <summary>A free entry's next holds StartOfFreeList(-3) - nextFree instead of nextFree.</summary>
    public required bool EncodedFreeList { get; init; }

    /// <summary>The used part of the entry array is [0, lastIndex) and count is the live count (legacy HashSet).</summary>
    public required bool HighWaterIsLastIndex { get; init; }

    /// <summary>How many entries from the start are used (live or free), from the count and lastIndex fields.</summary>
    public int HighWater(int count, int? lastIndex) => HighWaterIsLastIndex ? lastIndex ?? 0 : count;

    /// <summary>How many live entries the instance's own fields claim.</summary>
    public int LiveCount(int count, int? freeCount) => HighWaterIsLastIndex ? count : count - (freeCount ?? 0);

    /// <summary>How many free entries the fields claim (null for a layout without a freeCount field that does not derive it).</summary>
    public int? FreeCount(int highWater, int count, int? freeCount) => HighWaterIsLastIndex ? highWater - count : freeCount;

    /// <summary>Lookups on a cycle throw InvalidOperationException (Core 2.1+) instead of never returning.</summary>
    public required bool LookupsThrowOnCycle { get; init; }
}
