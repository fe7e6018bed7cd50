using System.Buffers.Binary;
using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// The objects ready for finalization: the GC's f-reachable queue (what SOS's <c>finalizequeue</c> lists as "Ready for
/// finalization"), the part of each sub-heap's finalization array between the fill pointers ClrMD exposes as
/// <see cref="ClrSubHeap.FinalizerQueueRoots"/>. Its length is the count, read without touching the objects; their types
/// are read for the first <see cref="MaxRead"/> only, and the count says when that cut them.
/// </summary>
internal sealed record FinalizerQueue(long Ready, int Read, IReadOnlyList<(string Type, int Count)> Top, IReadOnlyList<string> Problems)
{
    /// <summary>Objects whose type is read: enough for the top types of any real queue, at one small read each.</summary>
    public const int MaxRead = 100_000;

    /// <summary>Types a finding names, by count.</summary>
    public const int TopTypes = 5;

    /// <summary>A queue range longer than this many pointers is not a queue (a corrupt fill pointer): said, not read.</summary>
    public const long MaxPlausible = 1L << 32;

    private const int Chunk = 4096;

    public static readonly FinalizerQueue Empty = new(0, 0, [], []);

    /// <summary>Whether the types were read for part of the queue only.</summary>
    public bool Cut => Read < Ready;

    public static FinalizerQueue Of(Target target, CancellationToken cancellation)
    {
        ClrHeap heap = target.Runtime!.Heap;
        int size = target.PointerSize;
        long ready = 0;
        int read = 0;
        var counts = new Dictionary<string, int>(StringComparer.Ordinal);
        var problems = new List<string>();
        byte[] buffer = new byte[Chunk * size];
        foreach (ClrSubHeap sub in heap.SubHeaps)
        {
            MemoryRange range = sub.FinalizerQueueRoots;
            if (range.End < range.Start || range.Length % (ulong)size != 0 || range.Length / (ulong)size > MaxPlausible)
            {
                problems.Add($"sub-heap {sub.Index}: the f-reachable range {range.Start:x}-{range.End:x} is not a queue; not read");
                continue;
            }
            long count = (long)(range.Length / (ulong)size);
            ready += count;
            for (ulong at = range.Start; at < range.End && read < MaxRead; at += (ulong)buffer.Length)
            {
                cancellation.ThrowIfCancellationRequested();
                int want = (int)Math.Min((ulong)buffer.Length, range.End - at);
                want = Math.Min(want, (MaxRead - read) * size);
                int got = target.ReadMemory(at, buffer.AsSpan(0, want));
                for (int i = 0; i + size <= got; i += size)
                {
                    ulong obj = size == 8 ? BinaryPrimitives.ReadUInt64LittleEndian(buffer.AsSpan(i)) : BinaryPrimitives.ReadUInt32LittleEndian(buffer.AsSpan(i));
                    read++;
                    string type = obj == 0 ? "(empty slot)" : ObjectTypes.Of(heap, obj)?.Name ?? "(unreadable type)";
                    counts[type] = counts.GetValueOrDefault(type) + 1;
                }
                if (got < want)
                {
                    problems.Add($"sub-heap {sub.Index}: the f-reachable queue at {at:x} could not be read ({got} of {want} bytes)");
                    break;
                }
            }
        }
        var top = counts.OrderByDescending(c => c.Value).ThenBy(c => c.Key, StringComparer.Ordinal).Take(TopTypes).Select(c => (c.Key, c.Value)).ToList();
        return new FinalizerQueue(ready, read, top, problems);
    }

    /// <summary>"5,000 objects wait for finalization (PendingHandle 5,000)" (with "types of the first 100,000" when cut).</summary>
    public string Describe()
    {
        string objects = Ready == 1 ? "1 object" : $"{Ready:N0} objects";
        if (Top.Count == 0)
            return $"{objects} {(Ready == 1 ? "waits" : "wait")} for finalization";
        string types = string.Join(", ", Top.Select(t => $"{TypeNames.Short(t.Type)} {t.Count:N0}"));
        return $"{objects} {(Ready == 1 ? "waits" : "wait")} for finalization ({(Cut ? $"types of the first {Read:N0}: " : "")}{types})";
    }
}
