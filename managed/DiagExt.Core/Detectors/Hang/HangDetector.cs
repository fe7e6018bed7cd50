using DiagExt.Core.Analysis;
using DiagExt.Core.Heap;
using DiagExt.Core.Reports;
using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// Builds the process's wait-for graph (threads wait for locks and tasks, locks are held by threads) and reports what
/// blocks it: lock cycles (Monitor, System.Threading.Lock, ReaderWriterLockSlim), async methods deadlocked on
/// SemaphoreSlims, a thread pool starved by sync-over-async, and long chains of blocked threads.
/// </summary>
public sealed class HangDetector : IDetector
{
    public const string CommandName = "hang";
    public const string Deadlock = "deadlock";
    public const string AsyncDeadlock = "async-deadlock";
    public const string Starvation = "threadpool-starvation";
    public const string BlockedChain = "blocked-chain";
    public const string StuckChain = "stuck-chain";
    public const string RemoteWait = "remote-wait";
    public const string ContextDeadlock = "context-deadlock";
    public const string BlockedFinalizer = "blocked-finalizer";

    /// <summary>Fewest threads waiting one behind the other for a chain to be reported: one waiter on a busy lock is normal.</summary>
    public const int MinChainWaiters = 2;

    /// <summary>How long a live process is watched before it is read, to say whether its blocked threads move.</summary>
    public static readonly TimeSpan LiveWindow = TimeSpan.FromSeconds(1);

    public TimeSpan LiveSampleWindow => LiveWindow;

    public ISeriesJudge? SeriesJudge { get; } = new ChainSeries();

    public ILiveWatch? LiveWatch { get; } = new HangWatch();

    public string Name => CommandName;

    public string Description => "deadlocks, async deadlocks, thread-pool starvation and blocked chains: the wait-for graph of a hung process";

    public string Explanation =>
        "Finds what each thread waits in from its frames (Monitor.Enter, Lock.Enter, ReaderWriterLockSlim.Enter*Lock, SemaphoreSlim.Wait, " +
        "Task.Wait/.Result/GetResult, Thread.Join, ManualResetEventSlim.Wait) and the object it waits for in that wait's stack range, and who " +
        "holds each lock (the sync-block table and thin locks for Monitor, the owner field of System.Threading.Lock, the owner ids and the " +
        "per-thread reader counts of ReaderWriterLockSlim). A cycle of threads each waiting for a lock the next holds is 'deadlock' (certain), " +
        "with the threads that wait on its locks from outside listed as bystanders; every pool worker blocked on a task while work is queued is " +
        "'threadpool-starvation'; a chain of two or more threads waiting one behind the other for a thread that is not waiting for a lock is " +
        "'blocked-chain', a note from one dump (busy contention looks the same), and 'stuck-chain', a hazard, when dumps of the process taken in turn " +
        "(a batch groups them) or a live look show nothing in it moved (same frames, objects and holders; registers, stack words and CPU unchanged). A wait on a task is followed through the async methods it awaits to the thread running it " +
        "(an edge, as a Join is), a timer (Task.Delay: not a hang), a SemaphoreSlim, or a promise; a thread blocked on a promise or a ManualResetEventSlim that no other thread's stack " +
        "references is a 'blocked-chain' warning. A thread blocked on a task whose async method must resume on a SynchronizationContext only that " +
        "thread runs (the captured continuation, or the one already posted into the context's queue) is 'context-deadlock'. " +
        "Threads in a sync socket call (Socket.Receive/Send/Connect, NetworkStream.Read/Write), threads blocked on a task whose async chain ends at a pending socket operation, and pending socket operations no thread waits for are 'remote-wait', one per remote endpoint with the client library and the timeout it set: none is a hazard, a value a note. " +
        "Reported: each thread, what it holds and waits for and where, each lock with " +
        "the static field that holds it. On a live process the threads are sampled twice a second apart to say whether they moved. " +
        "A finalizer thread blocked in a Finalize is 'blocked-finalizer', with what it waits behind and the objects queued for finalization (count, top types).";

    public DetectorNeeds Needs => DetectorNeeds.ManagedRuntime;

    private readonly WaitableInterest _waitables = new();

    public IHeapInterest? HeapInterest => _waitables;

    public FindingContract Contract { get; } = new(CommandName, typeof(HangFinding), HangJson.Default);

    /// <summary>Every question asked of the graph, in the order their findings are listed. Adding one: its file under Verdicts/, a line here.</summary>
    internal static readonly IReadOnlyList<IHangVerdict> Verdicts = [new GraphVerdicts(), new AsyncDeadlocks(), new UnsignalledWaits(), new PoolStarvation(), new ContextDeadlocks(), new BlockedFinalizer(), new RemoteWaits()];

    public IReadOnlyList<Finding> Analyze(AnalysisContext context)
    {
        Target target = context.Target;
        ClrRuntime runtime = target.Runtime!;
        LockNames Naming(IReadOnlySet<ulong> wanted) => new(StaticReferenceFinder.FindPaths(runtime, wanted, context.Cancellation));
        var scene = new HangScene(target, new ThreadIndex(target.Threads), new Waitables(() => context.Heap.ObjectsFor(_waitables)),
            Naming, context.Note, context.SetAside, context.Cancellation);
        WaitGraph graph = WaitGraphBuilder.Build(scene);
        var findings = new List<Finding>();
        foreach (IHangVerdict verdict in Verdicts)
            findings.AddRange(verdict.Find(graph, scene).Select(f => LiveProgress.Annotate(f, target)));
        int waiting = graph.Waits.Values.Count(w => w.IsLockWait);
        if (findings.Count == 0)
            context.Note($"{graph.Waits.Count} thread{(graph.Waits.Count == 1 ? "" : "s")} in a wait ({waiting} for a lock); no cycle, no chain");
        return findings;
    }
}
