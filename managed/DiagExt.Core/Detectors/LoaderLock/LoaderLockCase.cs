using DiagExt.Core.Native.Windows;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Detectors.LoaderLock;

/// <summary>Everything the detector established about a held loader lock, before it is turned into words.</summary>
/// <param name="Owner">Null when the owning thread is not in the dump.</param>
/// <param name="OwnerCpu">The owner's CPU times when the dump records them (ThreadInfoList).</param>
/// <param name="CpuUnavailable">Why the dump has no CPU times, when it has none.</param>
/// <param name="Cycle">What the owner's wait shows of a deadlock.</param>
/// <param name="Inconsistencies">Why the dump cannot be one moment of the process (<see cref="InconsistencyFinder"/>); empty when it can.</param>
internal sealed record LoaderLockCase(
    WindowsProcess Process,
    WindowsFlavor Flavor,
    LoaderLockState State,
    OwnerAnalysis? Owner,
    VictimFinder.Result Victims,
    ThreadCpuTime? OwnerCpu,
    string? CpuUnavailable,
    bool FramesNamed,
    CycleProof Cycle,
    IReadOnlyList<string> Inconsistencies)
{
    public CriticalSection Lock => State.Lock!;

    /// <summary>The thread behind the lock that the owner waits for, when the cycle is certain.</summary>
    public Victim? DeadlockPartner => Cycle.Certainty == DeadlockCertainty.Certain ? Cycle.Partner : null;

    /// <summary>
    /// Why the owner cannot finish: it spins, or it waits in code of its own under the lock, or it waits while exiting
    /// (thread-detach or process-detach code waiting for other threads). A lock held by a thread that is loading,
    /// mapping or running a DllMain is an ordinary sight, waiters or not.
    /// </summary>
    public bool IsStuckOwner => Owner is { State: OwnerState.Spinning }
        || Owner is { State: OwnerState.Waiting } o && (o.CalledFromOwnCode || o.Activity is LoaderActivity.ExitingThread or LoaderActivity.ExitingProcess);

    public bool IsTorn => Inconsistencies.Count > 0;

    /// <summary>Whether this is worth a finding: the owner is gone, or (in a consistent dump) it cannot finish.</summary>
    public bool IsHazard => Owner is null || !IsTorn && IsStuckOwner;

    /// <summary>The finding's kind: deadlock, blocked-owner, waiters-unseen, owner-stuck or orphaned.</summary>
    public string Kind => Owner is null ? "orphaned"
        : DeadlockPartner is not null ? "deadlock"
        : Victims.Victims.Count > 0 ? "blocked-owner"
        : Lock.Waiters > 0 ? "waiters-unseen"
        : "owner-stuck";

    public static string Name(WindowsThread thread) => $"Thread {thread.Index} (0x{thread.ThreadId:x})";
}
