using DiagExt.Core;
using DiagExt.Core.Targets;

namespace DiagExt.Cli.Batch;

/// <summary>
/// Keeps the analyses running at once within a memory budget. Each dump is admitted with an estimate of
/// what its analysing process will use: a fixed base (runtime, ClrMD, the DAC), a quarter of the dump's
/// size for ClrMD's caches and the heap index (measured: a 174 MB core peaked at 65 MB), and the whole
/// dump when it is unpacked into memory. A dump that does not fit waits for others to finish; one larger
/// than the whole budget still runs, alone. The estimate is a guard, not a promise: each analysing
/// process also gets the whole budget as its GC heap hard limit, so a runaway one stops with an error.
/// </summary>
public sealed class MemoryBudget(long totalBytes)
{
    public const long BaseBytes = 160L * 1024 * 1024;

    private long _reserved;

    public long Total { get; } = totalBytes;

    public long Reserved => _reserved;

    public static long DefaultTotal()
    {
        long available = GC.GetGCMemoryInfo().TotalAvailableMemoryBytes;
        return available > 0 ? available / 2 : 4L * 1024 * 1024 * 1024;
    }

    public static long Estimate(DumpCandidate dump, Limits limits)
    {
        long size = dump.Length ?? 0;
        long unpackedInMemory = dump.Source.IsPacked && size <= limits.MaxInMemoryUnpackBytes ? size : 0;
        return BaseBytes + size / 4 + unpackedInMemory;
    }

    /// <summary>Reserves <paramref name="bytes"/> if they fit, or if nothing else is running.</summary>
    public bool TryReserve(long bytes, bool nothingRunning)
    {
        if (!nothingRunning && _reserved + bytes > Total)
            return false;
        _reserved += bytes;
        return true;
    }

    public void Release(long bytes) => _reserved = Math.Max(0, _reserved - bytes);
}
