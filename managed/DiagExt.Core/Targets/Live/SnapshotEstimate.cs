using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Targets.Live;

/// <summary>
/// About how long createdump would stop the process to write the heap dump a snapshot analyses: the managed heap's
/// committed memory (most of what it writes) at createdump's rate on the bench heap. For advice only: a live read
/// that stopped the process longer than this says a snapshot would stop it for less.
/// </summary>
internal static class SnapshotEstimate
{
    /// <summary>createdump wrote the 1.1 GB bench heap in 11 s on an idle machine (bench/RESULTS.md): ~100 MB/s.</summary>
    private const double BytesPerSecond = 100e6;

    /// <summary>createdump's start (finding and stopping the threads) before it writes anything.</summary>
    private static readonly TimeSpan Start = TimeSpan.FromSeconds(0.3);

    public static TimeSpan? For(ClrRuntime? runtime)
    {
        if (runtime is null)
            return null;
        ulong committed = 0;
        foreach (ClrSegment segment in runtime.Heap.Segments)
            committed += segment.CommittedMemory.Length;
        return Start + TimeSpan.FromSeconds(committed / BytesPerSecond);
    }
}
