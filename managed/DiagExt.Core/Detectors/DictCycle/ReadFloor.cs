using DiagExt.Core.Heap;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Detectors.DictCycle;

/// <summary>
/// A bench-only hook: DIAGEXT_BENCH_DICTCYCLE_READ_FLOOR=1 makes dictcycle read every table's entries and buckets,
/// chunk by chunk as the proof does, and classify none, so bench/run.sh can price what no proof can avoid (the bytes of
/// 8.3 M entries the heap walk never reads) against the same analyze with dictcycle left out. Not an option: a user
/// never wants tables left unclassified, and the report says so in a note whenever it is set.
/// </summary>
internal static class ReadFloor
{
    public const string Variable = "DIAGEXT_BENCH_DICTCYCLE_READ_FLOOR";

    public const string Note = "bench hook " + Variable + " set: every Dictionary/HashSet was read and none was classified";

    // Read at each run, not once, as the test hooks are.
    public static bool Asked => Environment.GetEnvironmentVariable(Variable) == "1";

    /// <summary>Reads the table's entries and buckets into the reader's reused buffers and looks at nothing.</summary>
    public static void Read(Target target, HashTableHeader h, HashTableShape shape)
    {
        TargetArrays.ReadInChunks(target, h.Entries, h.EntriesLength, shape.EntrySize, static (_, _) => { });
        TargetArrays.ReadInChunks(target, h.Buckets, h.BucketsLength, sizeof(int), static (_, _) => { });
    }
}
