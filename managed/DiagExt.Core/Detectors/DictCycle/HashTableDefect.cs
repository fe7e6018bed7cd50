namespace DiagExt.Core.Detectors.DictCycle;

/// <summary>The classes of corruption the classifier tells apart.</summary>
internal enum DefectKind
{
    /// <summary>entries[i].next == i: a lookup reaching i loops on it.</summary>
    SelfCycle,

    /// <summary>A chain returns to an earlier entry through two or more entries.</summary>
    Cycle,

    /// <summary>A next index outside [-1, count).</summary>
    NextOutOfRange,

    /// <summary>A bucket value outside the entry range.</summary>
    BucketOutOfRange,

    /// <summary>Two chains join: an entry is reachable from two buckets.</summary>
    CrossLinked,

    /// <summary>A chain reaches an entry that is free (removed or never used).</summary>
    ChainReachesFreeEntry,

    /// <summary>An entry sits in a chain its hash code does not map to: lookups for its key miss it.</summary>
    WrongBucket,

    /// <summary>Two live entries of one chain hold the same key: two writers added it at once.</summary>
    DuplicateKey,

    /// <summary>A live entry no bucket reaches: its key is lost (lookups miss, Add inserts a duplicate).</summary>
    OrphanedEntry,

    /// <summary>count advanced but the entry was never written (all zero).</summary>
    PhantomEntry,

    /// <summary>The free list leaves the entry range, loops, or runs through live entries.</summary>
    CorruptFreeList,

    /// <summary>The free list's length does not match freeCount (or lastIndex - count).</summary>
    FreeCountMismatch,

    /// <summary>Live entries reachable from buckets differ from the count the instance reports.</summary>
    CountMismatch,

    /// <summary>count/lastIndex is negative or larger than the entry array.</summary>
    CountOutOfRange,

    /// <summary>buckets and entries have different lengths (normal only during Resize).</summary>
    LengthMismatch,
}

/// <summary>One defect: its class, the entry indices involved and the buckets whose chains run into it.</summary>
internal sealed record HashTableDefect(DefectKind Kind, IReadOnlyList<int> Indices, IReadOnlyList<int> Buckets, string Detail)
{
    /// <summary>Whether lookups can loop on this defect (on unguarded runtimes: forever).</summary>
    public bool IsCycle => Kind is DefectKind.SelfCycle or DefectKind.Cycle;
}

/// <summary>The classifier's verdict on one instance.</summary>
internal sealed record HashTableDiagnosis(IReadOnlyList<HashTableDefect> Defects, int ReachableLive, int ExpectedLive, int UsedEntries)
{
    public bool IsHealthy => Defects.Count == 0;
}
