using DiagExt.Core.Reports;

namespace DiagExt.Core.Detectors.DictCycle;

/// <summary>One defect of a corrupt instance as it appears in JSON.</summary>
public sealed record DefectReport(string Kind, IReadOnlyList<int> Indices, IReadOnlyList<int> Buckets, string Detail);

/// <summary>A Dictionary/HashSet corrupted by concurrent writers.</summary>
public sealed record DictCycleFinding : Finding
{
    public override string Detector => DictCycleDetector.CommandName;

    /// <summary>
    /// The runtime said its heap could not be walked (the dump was taken during a garbage collection): the table may
    /// be half moved rather than corrupt, so the finding is a warning until a second dump shows it again.
    /// </summary>
    public bool ReadDuringGc { get; init; }

    public override FindingSeverity Severity => ReadDuringGc ? FindingSeverity.Warning : FindingSeverity.Hazard;

    /// <summary>The instance's address as a hex string ("0x7f01d5809718").</summary>
    public required Address Address { get; init; }

    /// <summary>The type with its generic arguments.</summary>
    public required string Type { get; init; }

    /// <summary>Which runtime generation's layout the instance uses.</summary>
    public required string Layout { get; init; }

    public required int Count { get; init; }

    public int? FreeCount { get; init; }

    public required int BucketsLength { get; init; }

    public required int EntriesLength { get; init; }

    public required Address BucketsAddress { get; init; }

    public required Address EntriesAddress { get; init; }

    /// <summary>Every entry index involved in a defect, ascending.</summary>
    public required IReadOnlyList<int> BadIndices { get; init; }

    /// <summary>Every bucket whose chain runs into a defect, ascending.</summary>
    public required IReadOnlyList<int> BadBuckets { get; init; }

    public required IReadOnlyList<DefectReport> Defects { get; init; }

    /// <summary>The key and value of the entries in loops, lost and duplicated (bounded), rendered as !wdict does.</summary>
    public IReadOnlyList<EntryKey> Keys { get; init; } = [];

    /// <summary>The exceptions this table threw that are still on the heap, grouped by where they were thrown.</summary>
    public IReadOnlyList<ExceptionCount> Exceptions { get; init; } = [];

    /// <summary>A static field path that holds the instance, when one was found.</summary>
    public string? Holder { get; init; }

    /// <summary>
    /// What callers get: the exceptions the heap shows the table threw ("calls on it throw InvalidOperationException and
    /// IndexOutOfRangeException"), else what lookups do on this runtime ("lookups never return", "lookups throw InvalidOperationException").
    /// </summary>
    public required string Verdict { get; init; }
}
