using DiagExt.Core.Analysis;
using DiagExt.Core.Detectors.Hang;
using DiagExt.Core.Reports;
using DiagExt.Core.Targets;
using DiagExt.Fuzz.Checks;
using DiagExt.Fuzz.Engine;
using DiagExt.Fuzz.Targets.Wcf;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Fuzz.Targets.Hang;

/// <summary>
/// hang over real cores of samples/Hangs (an upgrade deadlock, a Lock cycle, an async semaphore deadlock, a starved
/// pool; a task wait under a lock, a promise nobody completes, a Join onto a cycle, an event never set) whose lock,
/// task, promise source, event, thread and queue objects are replaced by the input: owners that are no thread, owner ids of any
/// size, reader lists and task-node queues that loop, a task that continues into itself, queue segments that point
/// back, counts at their extremes. The input's first byte picks the core; the rest is <see cref="HeapChunkCodec"/>'s.
/// The whole detector runs through ClrMD and the DAC: it must end, keep its bounds and render a clean report.
/// </summary>
public sealed class HangTarget : IFuzzTarget
{
    private static readonly string[] Cores = ["hang-rwlock-1.core", "hang-lock3-1.core", "hang-semaphore-1.core", "hang-starvation-1.core",
        "hang-taskwait-1.core", "hang-tcs-1.core", "hang-join-1.core", "hang-mres-1.core"];

    private static readonly string[] Types =
    [
        "System.Threading.ReaderWriterLockSlim",
        "System.Threading.ReaderWriterCount",
        "System.Threading.Lock",
        "System.Threading.SemaphoreSlim",
        "System.Threading.Tasks.Task",
        "System.Runtime.CompilerServices.AsyncTaskMethodBuilder",
        "System.Threading.ThreadPoolWorkQueue",
        "System.Collections.Concurrent.ConcurrentQueue",
        "System.Threading.QueueUserWorkItemCallback",
        "System.Threading.Tasks.TaskCompletionSource",
        "System.Threading.ManualResetEventSlim",
        "System.Threading.Thread",
    ];

    public string Name => "hang";

    public string Covers => "Detectors/Hang (MonitorOwners, LockOwner, RwLockOwners' thread statics, SemaphoreState, AsyncWaiter, AwaitSites, WorkQueueReader, the wait-for graph and cycle finder, the findings) over real cores with their lock, task and queue objects replaced";

    private static SampleCore? Core(int index) => SampleCore.Get(Cores[index % Cores.Length], Types);

    public IReadOnlyList<byte[]> Tokens =>
        [[0, 0, 0, 0, 0, 0, 0, 0], [0xFF, 0xFF, 0xFF, 0xFF], [1, 0, 0, 0], [0xFF, 0xFF, 0xFF, 0x7F],
         .. Enumerable.Range(0, Cores.Length).SelectMany(i => Core(i)?.Objects ?? []).Select(o => BitConverter.GetBytes(o.Address))];

    public IEnumerable<byte[]> BuiltInSeeds()
    {
        for (int i = 0; i < Cores.Length; i++)
            if (Core(i) is { Objects.Count: > 0 } core)
                yield return [(byte)i, .. HeapChunkCodec.Encode(core.Objects)];
    }

    public IReadOnlyList<Field> Fields(ReadOnlySpan<byte> input)
    {
        var fields = new FieldList(input.Length);
        if (input.Length < 1 || Core(input[0]) is not { } core)
            return fields.ToList();
        foreach (var (chunk, offset) in HeapChunkCodec.Decode(input[1..].ToArray()))
        {
            fields.Add(1 + offset - HeapChunkCodec.ChunkHeaderSize, 8, FieldKind.Pointer, chunk.Address);
            foreach (var (at, size, kind) in core.FieldsAt(chunk.Address))
                fields.Add(1 + offset + at, size, kind, chunk.Address); // a reference to its own object: a node next to itself, a task continuing into itself
        }
        return fields.ToList();
    }

    public bool IsDocumentedRejection(Exception e) => false; // a lying heap is data: hang must never throw on it

    public string Execute(ReadOnlyMemory<byte> input)
    {
        if (input.Length < 1 || Core(input.Span[0]) is not { } core)
            return "no-core";
        var chunks = HeapChunkCodec.Decode(input[1..]).Select(c => c.Chunk).ToList();
        using Target target = core.Overlay(chunks, "fuzzed hang core");
        ClrRuntime? runtime = target.Runtime;
        AnalysisReport report = Analyzer.Run(target, [new HangDetector()]);
        ReportChecks.Check(report);

        var findings = report.Findings.OfType<HangFinding>().ToList();
        foreach (HangFinding f in findings)
        {
            if (f.Kind is not (HangDetector.Deadlock or HangDetector.AsyncDeadlock or HangDetector.Starvation or HangDetector.BlockedChain))
                throw new PropertyViolation($"unknown verdict '{f.Kind}'");
            if (f.Threads.Count > target.Threads.Count)
                throw new PropertyViolation($"a finding names {f.Threads.Count} threads of {target.Threads.Count}");
            if (f.Cycle.Count > Math.Max(target.Threads.Count, SemaphoreState.MaxNodes * AsyncDeadlocks.MaxSemaphores))
                throw new PropertyViolation($"a cycle of {f.Cycle.Count} steps");
            if (f.Kind == HangDetector.Deadlock && f.Cycle.Count == 0)
                throw new PropertyViolation("a deadlock without its cycle");
            if (f.Locks.Any(l => l.HeldBy.Any(t => target.FindThread(t) is null)))
                throw new PropertyViolation("a lock held by a thread the process does not have");
        }
        string? note = report.Outcomes.Single().Reason;
        return new Signature().Add("core", input.Span[0] % Cores.Length).Add("runtime", runtime is not null)
            .Add("kinds", string.Join(",", findings.Select(f => f.Kind).Distinct().Order()))
            .Add("findings", findings.Count).Add("steps", findings.Sum(f => f.Cycle.Count)).Add("note", note?.Split(':')[0]).ToString();
    }
}
