using DiagExt.Core.Native.Minidump;
using DiagExt.Core.Native.Stacks;
using DiagExt.Core.Native.Windows;

namespace DiagExt.Core.Detectors.LoaderLock;

/// <summary>
/// What in the dump cannot be one moment of one process: the owner shown waiting to enter the lock it owns, a
/// LockCount counting more waiters than the dump has threads or fewer than the stacks show, a critical section the
/// owner is shown waiting for whose LockCount counts no waiter, a module list without ntdll.dll (or empty). A writer
/// that copies memory while the process runs (Wine's pauses each thread only while it reads its registers) produces
/// them; none of them is evidence of a hang.
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
        // Every Windows process maps ntdll first and never unloads it; a list without it (Wine's writer, dumping the busy
        // loader while it ran, wrote one with no module at all) was walked while another thread relinked the loader's list.
        IReadOnlyList<MinidumpModule> modules = process.Dump.Modules;
        if (!modules.Any(m => string.Equals(m.FileName, "ntdll.dll", StringComparison.OrdinalIgnoreCase)))
            found.Add(modules.Count == 0
                ? "its module list is empty, though every Windows process has ntdll.dll loaded: the list was read while modules loaded or unloaded, and no frame can be named"
                : $"its module list ({Modules(modules.Count)}) lacks ntdll.dll, which every Windows process loads first: the list was read while modules loaded or unloaded");
        return found;
    }

    private static string Modules(int n) => n == 1 ? "1 module" : $"{n} modules";

    private static string Threads(int n) => n == 1 ? "1 thread" : $"{n} threads";
}
