using System.Text.Json.Serialization;
using DiagExt.Core.Reports;

namespace DiagExt.Core.Detectors.LoaderLock;

/// <summary>The loader lock's owner as it appears in JSON.</summary>
/// <param name="State">spinning, waiting, running or unknown.</param>
/// <param name="Activity">exiting, loading, unloading, ... or null when no loader function is on its stack.</param>
/// <param name="StateFunction">The function that shows the state: "SwitchToThread", "WaitForSingleObject".</param>
/// <param name="Module">The innermost module of its own code under the lock ("mkl_core.dll").</param>
/// <param name="WaitsForCriticalSection">The critical section it waits to enter (hex), with its owner.</param>
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
    Address? WaitsForCriticalSection,
    uint? WaitsForThread,
    IReadOnlyList<string> Stack);

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
    public required Address LockAddress { get; init; }

    public required Address PebAddress { get; init; }

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

    /// <summary>True only when the dump proves a cycle: the owner waits for a lock held by a thread that waits for the loader lock.</summary>
    public required bool Deadlock { get; init; }

    /// <summary>x64, x86, or x86 under WOW64.</summary>
    public required string ProcessArchitecture { get; init; }
}
