using DiagExt.Core.Native.Windows;

namespace DiagExt.Core.Detectors.LoaderLock;

/// <summary>TEB -> PEB -> PEB.LoaderLock -> RTL_CRITICAL_SECTION, for the process's own bitness.</summary>
internal static class LoaderLockReader
{
    public static LoaderLockState Read(WindowsProcess process)
    {
        ulong peb = process.Peb();
        if (peb == 0)
            return new LoaderLockState(LoaderLockStatus.TebNotCaptured, 0, 0, null);
        if (process.LoaderLockAddress(peb) is not { } lockAddress)
            return new LoaderLockState(LoaderLockStatus.PebNotCaptured, peb, 0, null);
        if (lockAddress == 0)
            return new LoaderLockState(LoaderLockStatus.NoLock, peb, 0, null);
        if (CriticalSection.Read(process.Dump, lockAddress, process.Layout) is not { } cs)
            return new LoaderLockState(LoaderLockStatus.LockNotCaptured, peb, lockAddress, null);
        return new LoaderLockState(cs.IsHeld ? LoaderLockStatus.Held : LoaderLockStatus.Free, peb, lockAddress, cs);
    }
}
