using System.Text.Json.Serialization;
using DiagExt.Core.Reports;

namespace DiagExt.Core.Detectors.LoaderLock;

/// <summary>The loader lock's owner as it appears in JSON.</summary>
/// <param name="State">spinning, waiting, running or unknown.</param>
/// <param name="Activity">exiting, loading, unloading, ... or null when no loader function is on its stack.</param>
/// <param name="StateFunction">The function that shows the state: "SwitchToThread", "WaitForSingleObject".</param>
/// <param name="Module">The innermost module of its own code under the lock ("mkl_core.dll").</param>
/// <param name="WaitsForCriticalSection">The critical section it waits to enter (hex), with its owner.</param>
/// <param name="WaitsForThread">The thread it waits for: the holder of that critical section, or the thread whose handle it waits on.</param>
/// <param name="WaitsOnHandles">The handles its wait is on, when its registers tell.</param>
public sealed record LoaderLockOwner(
    uint OsThreadId,
    int ThreadNumber,
    string State,
    string? Activity,
    string? StateFunction,
    string? Module,
    bool LoadOwner,
    [property: JsonPropertyName("userCpuSeconds"), JsonConverter(typeof(SecondsJsonConverter))] TimeSpan? UserCpu,
    [property: JsonPropertyName("kernelCpuSeconds"), JsonConverter(typeof(SecondsJsonConverter))] TimeSpan? KernelCpu,
    string? WaitsForCriticalSection,
    uint? WaitsForThread,
    IReadOnlyList<LoaderLockWaitedHandle>? WaitsOnHandles,
    IReadOnlyList<string> Stack);

/// <summary>A handle the owner waits on, with what the dump's handle data says of it.</summary>
/// <param name="Handle">The handle value (hex).</param>
/// <param name="Type">"Thread", "Event", ... or null when the dump has no handle data for it.</param>
/// <param name="OsThreadId">For a thread handle, the thread it opens, when the dump proves it.</param>
public sealed record LoaderLockWaitedHandle(string Handle, string? Type, uint? OsThreadId);

/// <summary>A thread waiting for the loader lock as it appears in JSON.</summary>
/// <param name="Api">The loader API it is blocked in: "LoadLibraryW", "GetProcAddress".</param>
/// <param name="Style">critical-section (Windows 7, Wine) or load-owner (Windows 10+).</param>
/// <param name="CallerModule">The module that called that API.</param>
public sealed record LoaderLockVictim(
    uint OsThreadId,
    int ThreadNumber,
    string Api,
    string? Activity,
    string Style,
    string? CallerModule,
    IReadOnlyList<string> Proof,
    IReadOnlyList<string> Stack);

/// <summary>The Windows loader lock held by a thread that does not let go, and the threads hanging behind it.</summary>
public sealed record LoaderLockFinding : Finding
{
    public override string Detector => LoaderLockDetector.CommandName;

    /// <summary>The RTL_CRITICAL_SECTION's address (hex), as PEB.LoaderLock gives it.</summary>
    public required string LockAddress { get; init; }

    public required string PebAddress { get; init; }

    public required int LockCount { get; init; }

    public required int RecursionCount { get; init; }

    /// <summary>The owner's thread id as the lock records it.</summary>
    public required ulong OwningThread { get; init; }

    /// <summary>What LockCount says, with the encoding it was read in.</summary>
    public required string LockCountMeaning { get; init; }

    /// <summary>Null when the owning thread is not in the dump.</summary>
    public LoaderLockOwner? Owner { get; init; }

    public required IReadOnlyList<LoaderLockVictim> Victims { get; init; }

    /// <summary>Modules of the program (or third parties) involved: the owner's code under the lock, the victims' callers.</summary>
    public required IReadOnlyList<string> Modules { get; init; }

    /// <summary>
    /// "certain" when the dump proves a cycle (the owner waits for a critical section held by a thread behind the
    /// loader lock, or for such a thread to end); "likely" when the owner waits, in code of its own, for something the
    /// threads behind the lock could give (an event, a semaphore, a mutex, an object the dump does not name); "none".
    /// </summary>
    public required string Deadlock { get; init; }

    /// <summary>The sentence that says why (null with "none").</summary>
    public string? DeadlockProof { get; init; }

    /// <summary>For a likely deadlock, the threads behind the lock that could give what the owner waits for.</summary>
    public required IReadOnlyList<uint> CouldSignal { get; init; }

    /// <summary>x64, x86, or x86 under WOW64.</summary>
    public required string ProcessArchitecture { get; init; }
}
