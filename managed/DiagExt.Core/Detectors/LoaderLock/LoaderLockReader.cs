using DiagExt.Core.Native.Windows;

namespace DiagExt.Core.Detectors.LoaderLock;

/// <summary>TEB -> PEB -> PEB.LoaderLock -> RTL_CRITICAL_SECTION, for the process's own bitness.</summary>
internal static class LoaderLockReader
{
    public static LoaderLockState Read(WindowsProcess process)
    {
        WindowsLayout layout = process.Layout;
        var dump = process.Dump;
        ulong peb = 0;
        foreach (WindowsThread thread in process.Threads)
        {
            if (thread.TebCaptured && dump.TryReadPointer(thread.Teb + (ulong)layout.TebPeb, layout.PointerSize == 8, out peb) && peb != 0)
                break;
            peb = 0;
        }
        if (peb == 0)
            return new LoaderLockState(LoaderLockStatus.TebNotCaptured, 0, 0, null);
        if (!dump.TryReadPointer(peb + (ulong)layout.PebLoaderLock, layout.PointerSize == 8, out ulong lockAddress))
            return new LoaderLockState(LoaderLockStatus.PebNotCaptured, peb, 0, null);
        if (lockAddress == 0)
            return new LoaderLockState(LoaderLockStatus.NoLock, peb, 0, null);
        if (CriticalSection.Read(dump, lockAddress, layout) is not { } cs)
            return new LoaderLockState(LoaderLockStatus.LockNotCaptured, peb, lockAddress, null);
        return new LoaderLockState(cs.IsHeld ? LoaderLockStatus.Held : LoaderLockStatus.Free, peb, lockAddress, cs);
    }
}
