using DiagExt.Core.Reports;
using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// Thread-pool starvation: every pool worker is blocked (in a wait of its own, not idle in the pool's semaphore) and
/// work is queued that no worker will take. Said "by sync-over-async" when the workers block on tasks (.Result, .Wait(),
/// GetResult()), whose continuations are likely among the queued work. Workers are found from their frames
/// (PortableThreadPool+WorkerThread) or the runtime's thread-pool flag (.NET Framework's native pool).
/// </summary>
internal sealed class PoolStarvation : IHangVerdict
{
    public bool InWatch => true;

    public IEnumerable<HangFinding> Find(WaitGraph graph, HangScene scene) =>
        Find(scene.Target, graph, scene.Note, scene.Cancellation) is { } starved ? [starved] : [];

    public static HangFinding? Find(Target target, WaitGraph graph, Action<string> note, CancellationToken cancellation)
    {
        ClrRuntime runtime = target.Runtime!;
        var workers = target.Threads.Where(IsWorker).ToList();
        if (workers.Count == 0)
            return null;
        var blocked = workers.Select(w => graph.WaitOf(w.OsThreadId)).OfType<ThreadWait>().ToList();
        ClrThreadPool? pool = SafePool(runtime);
        if (blocked.Count < workers.Count)
            return null;
        WorkQueueReader.Queued? queued = WorkQueueReader.Read(runtime, cancellation);
        if (queued is null)
            note("the thread pool's queues could not be read (a native .NET Framework pool, or its statics are not in the dump)");
        if (queued is not { Count: > 0 })
            return null;

        bool sync = blocked.All(b => b.Site.Kind == WaitKind.Task);
        var groups = blocked.GroupBy(b => $"{b.FirstUserCode?.ShortName ?? b.UserFrame?.ShortName ?? "?"} -> {WaitWord(b)}")
            .OrderByDescending(g => g.Count()).ThenBy(g => g.Key, StringComparer.Ordinal).ToList();
        int? max = pool is { MaxThreads: > 0 } p ? p.MaxThreads : null;
        var evidence = new List<Markup>
        {
            Markup.Text($"pool: {workers.Count} worker{(workers.Count == 1 ? "" : "s")}{(max is int m ? $" of at most {m}" : "")}, all {blocked.Count} blocked, none idle" +
                        (pool is { MinThreads: > 0 } pm ? $" (minimum {pm.MinThreads})" : "")),
            Markup.Text($"queued: {queued.Count} work item{(queued.Count == 1 ? "" : "s")} no worker will take: " +
                        string.Join(", ", queued.ByType.Take(4).Select(t => $"{t.Count} {TypeNames.Short(t.Type)}"))),
        };
        foreach (var group in groups)
        {
            MarkupBuilder line = Markup.Line().Text($"{group.Count()} blocked at {group.Key}: ");
            foreach (ThreadWait w in group.Take(8))
                line.Thread(w.Thread.OsThreadId).Text(" ");
            evidence.Add(line);
        }
        int waitedQueued = blocked.Count(b => !b.Target.IsNull && queued.Items.Contains(b.Target.Address));
        if (waitedQueued > 0)
            evidence.Add(Markup.Text($"{waitedQueued} of the tasks the workers wait for {(waitedQueued == 1 ? "is" : "are")} in the queue, waiting for a worker: the workers wait for work only they could run"));
        if (max is int limit && workers.Count < limit)
            evidence.Add(Markup.Text($"the pool may still add workers (up to {limit}), about one a second while starved: each new one that runs such an item blocks too"));
        return new HangFinding
        {
            Kind = HangDetector.Starvation,
            Title = $"Thread-pool starvation{(sync ? " by sync-over-async" : "")}: all {workers.Count} workers blocked, {queued.Count} work items queued",
            Summary = $"Every pool worker is blocked{(sync ? " waiting for a task (.Result, .Wait(), GetResult())" : "")} and {queued.Count} queued work items wait for a worker. " +
                      (sync ? "The tasks they wait for need a pool thread to finish (their continuations are queued behind them), so none can." : "Nothing queued can run until a worker is released."),
            Threads = blocked.Select(b => ThreadRefs.For(b.Thread, $"pool worker blocked at {b.FirstUserCode?.ShortName ?? b.UserFrame?.ShortName ?? b.WaitFrame.ShortName} -> {WaitWord(b)}", b)).ToList(),
            Evidence = evidence,
            Advice = HangAdvice.Starvation,
            ThreadPool = new HangThreadPool
            {
                Workers = workers.Count,
                MaxWorkers = max,
                BlockedWorkers = blocked.Count,
                Queued = queued.Count,
                BlockedAt = groups.Select(g => $"{g.Key} ({g.Count()})").ToList(),
            },
        };
    }

    private static string WaitWord(ThreadWait wait) => wait.Site.Kind switch
    {
        WaitKind.Task => wait.WaitFrame.MethodName switch
        {
            "GetResultCore" or "get_Result" => "Task.Result",
            "GetResult" => "GetAwaiter().GetResult()",
            _ => $"Task.{wait.WaitFrame.MethodName}",
        },
        _ => wait.WaitFrame.ShortName,
    };

    private static bool IsWorker(TargetThread thread)
    {
        if (thread.ClrThread is not { } clr)
            return false;
        // .NET's managed pool: its workers start in PortableThreadPool+WorkerThread (the runtime's flag marks its gate
        // thread too). .NET Framework's native pool has no such frame: the runtime's flag is all there is.
        if (thread.Frames.Any(f => f.TypeName == HangNames.WorkerStart))
            return true;
        return clr.Runtime.ClrInfo.Flavor == ClrFlavor.Desktop && (clr.State & ClrThreadState.TS_TPWorkerThread) != 0;
    }

    /// <summary>
    /// ClrMD reads the pool from CoreLib's statics; with the runtime's own data corrupt (a fuzzed core's assembly list)
    /// it throws whatever it hits, NullReferenceException included: unreadable data, so no pool, not a failed detector.
    /// </summary>
    private static ClrThreadPool? SafePool(ClrRuntime runtime)
    {
        try
        {
            return runtime.ThreadPool;
        }
        catch (Exception e) when (CorruptType.Is(e))
        {
            return null;
        }
    }
}
