using System.Numerics;
using System.Runtime.CompilerServices;

namespace DiagExt.Core;

/// <summary>
/// Caps on every count DiagExt reads from a target. The target is broken by definition, so a length
/// field is a claim, not a fact: each loop over target data is bounded by one of these. Each cap is checked
/// where it is set (as ClrMD's DataTargetLimits does): a cap of zero or less is a programming error, not a limit.
/// </summary>
public sealed record Limits
{
    public static Limits Default { get; } = new();

    /// <summary>Largest Dictionary/HashSet array DiagExt classifies (entries or buckets).</summary>
    public int MaxHashTableLength { get; init => field = Positive(value); } = 256 * 1024 * 1024;

    public int MaxThreads { get; init => field = Positive(value); } = 16 * 1024;

    public int MaxFramesPerThread { get; init => field = Positive(value); } = 4096;

    public int MaxMinidumpStreams { get; init => field = Positive(value); } = 4096;

    public int MaxMinidumpMemoryRanges { get; init => field = Positive(value); } = 1024 * 1024;

    public int MaxElfProgramHeaders { get; init => field = Positive(value); } = 64 * 1024;

    public int MaxElfNotes { get; init => field = Positive(value); } = 1024 * 1024;

    /// <summary>Most exports read from one PE image's export table (ntdll has about 2,500).</summary>
    public int MaxExportsPerModule { get; init => field = Positive(value); } = 64 * 1024;

    /// <summary>Most x64 .pdata entries read from one PE image (large DLLs have some 100,000).</summary>
    public int MaxRuntimeFunctionsPerModule { get; init => field = Positive(value); } = 1024 * 1024;

    /// <summary>Most bytes of one thread's live stack read for references to objects, from its stack pointer up.</summary>
    public int MaxStackScanBytes { get; init => field = Positive(value); } = 1024 * 1024;

    /// <summary>
    /// Most objects the liveness mark (<see cref="Targets.LiveObjects"/>) visits from the process's roots before it stops
    /// and answers "unknown": enough for most live heaps, at some 30-60 bytes of memory per object visited.
    /// </summary>
    public int MaxLiveMarkObjects { get; init => field = Positive(value); } = 4 * 1024 * 1024;

    /// <summary>Most bytes of one native stack scanned for return addresses, from the stack pointer up.</summary>
    public int MaxNativeStackScanBytes { get; init => field = Positive(value); } = 1024 * 1024;

    /// <summary>Largest dump unpacked from a .gz/.zip into memory; larger ones go to a temp file.</summary>
    public long MaxInMemoryUnpackBytes { get; init => field = Positive(value); } = 512L * 1024 * 1024;

    /// <summary>Largest dump diagext unpacks at all (a zip bomb stops here).</summary>
    public long MaxUnpackedBytes { get; init => field = Positive(value); } = 64L * 1024 * 1024 * 1024;

    /// <summary>Most members of one zip archive diagext looks at.</summary>
    public int MaxArchiveEntries { get; init => field = Positive(value); } = 100_000;

    /// <summary>Most files one batch looks at (folders are walked recursively).</summary>
    public int MaxBatchFiles { get; init => field = Positive(value); } = 100_000;

    /// <summary>Longest string read from the target (type names, keys) before it is cut.</summary>
    public int MaxStringLength { get; init => field = Positive(value); } = 1024;

    private static T Positive<T>(T value, [CallerMemberName] string name = "") where T : INumber<T> =>
        value > T.Zero ? value : throw new ArgumentOutOfRangeException(name, value, $"{name} must be positive");
}
