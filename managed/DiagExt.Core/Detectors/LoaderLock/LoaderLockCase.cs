using DiagExt.Core.Native.Windows;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Detectors.LoaderLock;

/// <summary>Everything the detector established about a held loader lock, before it is turned into words.</summary>
/// <param name="Owner">Null when the owning thread is not in the dump.</param>
/// <param name="OwnerCpu">The owner's CPU times when the dump records them (ThreadInfoList).</param>
/// <param name="CpuUnavailable">Why the dump has no CPU times, when it has none.</param>
internal sealed record LoaderLockCase(
    WindowsProcess Process,
    LoaderLockState State,
    OwnerAnalysis? Owner,
    VictimFinder.Result Victims,
    ThreadCpuTime? OwnerCpu,
    string? CpuUnavailable,
    bool FramesNamed)
{
    public CriticalSection Lock => State.Lock!;

    /// <summary>The thread that holds the critical section the owner waits for, when that thread waits for the loader lock.</summary>
    public Victim? DeadlockPartner => Owner?.WaitsFor is { } cs ? Victims.Victims.FirstOrDefault(v => v.Thread.ThreadId == cs.OwningThread) : null;

    public bool IsStuckOwner => Owner?.State is OwnerState.Spinning or OwnerState.Waiting;

    /// <summary>
    /// Whether this is worth a finding: someone waits (on the stacks, or as the lock's own waiter count says), the
    /// owner is gone, or the owner spins or blocks under the lock.
    /// </summary>
    public bool IsHazard => Owner is null || Victims.Victims.Count > 0 || Lock.Waiters > 0 || IsStuckOwner;

    /// <summary>The finding's kind: deadlock, blocked-owner, contention, waiters-unseen, owner-stuck or orphaned.</summary>
    public string Kind => Owner is null ? "orphaned"
        : DeadlockPartner is not null ? "deadlock"
        : Victims.Victims.Count == 0 && Lock.Waiters > 0 ? "waiters-unseen"
        : Victims.Victims.Count == 0 ? "owner-stuck"
        : IsStuckOwner ? "blocked-owner"
        : "contention";

    public static string Name(WindowsThread thread) => $"Thread {thread.Index} (0x{thread.ThreadId:x})";
}
