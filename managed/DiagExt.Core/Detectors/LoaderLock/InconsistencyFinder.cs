using DiagExt.Core.Native.Stacks;
using DiagExt.Core.Native.Windows;

namespace DiagExt.Core.Detectors.LoaderLock;

/// <summary>
/// What in the dump cannot be one moment of one process: the owner shown waiting to enter the lock it owns, a
/// LockCount counting more waiters than the dump has threads or fewer than the stacks show, a critical section the
/// owner is shown waiting for whose LockCount counts no waiter. A writer that copies memory while the process runs
/// (Wine's pauses each thread only while it reads its registers) produces them; none of them is evidence of a hang.
/// </summary>
internal static class InconsistencyFinder
{
    public static IReadOnlyList<string> Find(WindowsProcess process, ProcessStacks stacks, CriticalSection loaderLock, OwnerAnalysis owner, IReadOnlyList<Victim> victims)
    {
        var found = new List<string>();
        if (VictimFinder.OwnerShownWaiting(process, stacks, owner.Thread, loaderLock.Address) is { } shown)
            found.Add($"its owner, {LoaderLockCase.Name(owner.Thread)}, is shown waiting to enter it ({string.Join("; ", shown.Proof)})");
        int others = process.Threads.Count - 1;
        if (loaderLock.Waiters > others)
            found.Add($"its LockCount {loaderLock.LockCount} counts {loaderLock.Waiters} waiters; the dump has {Threads(others)} besides the owner");
        int entering = victims.Count(v => v.Style == VictimStyle.CriticalSection);
        if (entering > loaderLock.Waiters)
            found.Add($"{Threads(entering)} {(entering == 1 ? "is" : "are")} shown waiting to enter it; its LockCount {loaderLock.LockCount} counts {loaderLock.Waiters}");
        if (owner is { State: OwnerState.Waiting, WaitsFor: { Waiters: 0 } cs })
            found.Add($"the owner is shown waiting to enter critical section 0x{cs.Address:x}, whose LockCount {cs.LockCount} counts no waiter");
        return found;
    }

    private static string Threads(int n) => n == 1 ? "1 thread" : $"{n} threads";
}
