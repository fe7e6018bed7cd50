using System.Text.Json.Serialization;
using DiagExt.Core.Reports;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>What blocks a hung process: a cycle of threads and locks, async methods waiting on each other, a starved pool or a long chain.</summary>
public sealed record HangFinding : Finding, IHasRing
{
    /// <summary>The cycle for renderers that draw it: each thread (or async method) and the lock it waits for.</summary>
    [JsonIgnore]
    public IReadOnlyList<RingStep> Ring => Cycle.Select(s => new RingStep(
        s.OsThreadId is uint t ? $"0x{t:x}{(s.ManagedThreadId is int m ? $" ({m})" : "")}" : s.Method ?? "?",
        $"waits for {LockName(s.WaitsFor)}")).ToList();

    private string LockName(Address address) =>
        Locks.FirstOrDefault(l => l.Address == address) is { } l ? $"{(l.Path is { } p ? p[(p.LastIndexOf('.') + 1)..] : Targets.TypeNames.Short(l.Type))} {address}" : address.ToString();

    public override string Detector => HangDetector.CommandName;

    /// <summary>A cycle, an async cycle and a starved pool are certain; a chain ending in a thread that runs may yet move.</summary>
    public override FindingSeverity Severity => Level ?? (Kind == HangDetector.BlockedChain ? FindingSeverity.Warning : FindingSeverity.Hazard);

    /// <summary>
    /// Set when the kind's usual severity would claim too much: a thread waiting on an event or promise that a static
    /// or handle still reaches is what an idle consumer looks like, so it is a note, not a warning.
    /// </summary>
    public FindingSeverity? Level { get; init; }

    /// <summary>The locks involved, each with who holds it and, when the heap shows one, the static field path that holds it.</summary>
    public IReadOnlyList<HangLock> Locks { get; init; } = [];

    /// <summary>The cycle in wait order: each step's thread waits for the next step's; the last waits for the first.</summary>
    public IReadOnlyList<HangCycleStep> Cycle { get; init; } = [];

    /// <summary>The pool's state, for threadpool-starvation.</summary>
    public HangThreadPool? ThreadPool { get; init; }

    /// <summary>
    /// True for a chain one dump cannot tell from busy contention: a second dump or a live look settles it (a dump
    /// series compares these, and a live sample makes a stuck one a hazard). Not set on a wait that looks the same when
    /// healthy and hung (an idle consumer on a promise a static reaches), which time cannot settle.
    /// </summary>
    public bool TimeSettles { get; init; }

    /// <summary>For blocked-finalizer: the finalizer thread and the objects queued behind it.</summary>
    public HangFinalizer? Finalizer { get; init; }

    /// <summary>The remote endpoint a remote-wait finding's threads and requests wait on, with the client and its timeout.</summary>
    public HangRemote? Remote { get; init; }

    /// <summary>On a live process: whether the blocked threads moved between two samples ("still blocked after 1.0 s, no CPU used").</summary>
    public string? Progress { get; init; }
}

/// <summary>A remote endpoint that does not answer (remote-wait): who waits on it and with what timeout.</summary>
public sealed record HangRemote
{
    /// <summary>"127.0.0.1:5432", "[2001:db8::1]:443" or "db.example:5432" (an IPv4-mapped IPv6 address is written as IPv4).</summary>
    public required string Endpoint { get; init; }

    /// <summary>The clients waiting, most waits first: the library their frames or async methods name ("Npgsql", "HttpClient"), "Socket" for code using the socket itself ("HttpClient, Socket").</summary>
    public required string Library { get; init; }

    /// <summary>Threads blocked on it: in a sync socket call, or in .Result/.Wait() on a task whose async chain ends at its pending operation.</summary>
    public required int Threads { get; init; }

    /// <summary>Async socket operations pending on it that no blocked thread waits for (requests of a pure async service).</summary>
    public required int Requests { get; init; }

    /// <summary>"none", "value", "os" or "unknown": the timeout its waits have, the worst of them.</summary>
    public required string Timeout { get; init; }

    /// <summary>The timeout in seconds when every wait has one (the longest).</summary>
    public double? TimeoutSeconds { get; init; }
}

/// <summary>One lock of a finding.</summary>
public sealed record HangLock
{
    /// <summary>The lock object's address, "0x7ef5bd80a2e8".</summary>
    public required Address Address { get; init; }

    /// <summary>The object's type: System.Object for a plain lock object, System.Threading.Lock, ReaderWriterLockSlim, SemaphoreSlim.</summary>
    public required string Type { get; init; }

    /// <summary>"monitor", "lock", "rwlock", "semaphore" or "native-mutex".</summary>
    public required string Kind { get; init; }

    /// <summary>The static field (or one field further) that holds it: "Hangs.MonitorDeadlock.AccountLock".</summary>
    public string? Path { get; init; }

    /// <summary>OS ids of the threads that hold it; empty for a semaphore, which has no owner.</summary>
    public IReadOnlyList<uint> HeldBy { get; init; } = [];

    /// <summary>Recursion, counts, waiters, as the target records them.</summary>
    public string? Detail { get; init; }
}

/// <summary>One thread of a cycle: what it holds and what it waits for, and in which frame.</summary>
public sealed record HangCycleStep
{
    /// <summary>The thread of a lock cycle; null for an async method, which no thread runs while it waits.</summary>
    public uint? OsThreadId { get; init; }

    public int? ManagedThreadId { get; init; }

    /// <summary>The async method of an async-deadlock step ("SemaphoreDeadlock.PlaceOrderAsync").</summary>
    public string? Method { get; init; }

    /// <summary>Its state machine box (a task), for !DumpObj and dumpasync.</summary>
    public Address? StateMachine { get; init; }

    /// <summary>The lock it holds that the previous step waits for.</summary>
    public Address? Holds { get; init; }

    /// <summary>The lock it waits for, held by the next step.</summary>
    public required Address WaitsFor { get; init; }

    /// <summary>The wait frame: "Monitor.Enter", "ReaderWriterLockSlim.EnterWriteLock".</summary>
    public string? Frame { get; init; }

    /// <summary>The user's frame that waits: where it takes the lock.</summary>
    public string? CallerFrame { get; init; }
}

/// <summary>The thread pool of a starved process.</summary>
public sealed record HangThreadPool
{
    public required int Workers { get; init; }

    public int? MaxWorkers { get; init; }

    public required int BlockedWorkers { get; init; }

    /// <summary>Work items queued (global, high-priority and per-thread queues), when the queues could be read.</summary>
    public int? Queued { get; init; }

    /// <summary>Where the workers block, grouped: "OrderService.Load -> Task.Result (2)".</summary>
    public IReadOnlyList<string> BlockedAt { get; init; } = [];
}
