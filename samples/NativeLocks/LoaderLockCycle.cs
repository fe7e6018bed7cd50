namespace NativeLocks;

/// <summary>
/// glibc's loader lock in a cycle: loader's dlopen runs libnlslowinit.so's constructor under _dl_load_lock, and the
/// constructor waits for the gate mutex gatekeeper holds; gatekeeper then calls dlopen itself and waits for
/// _dl_load_lock. Neither thread waits on anything managed.
/// </summary>
internal static class LoaderLockCycle
{
    public static void Run()
    {
        string slow = Path.Combine(AppContext.BaseDirectory, "libnlslowinit.so");
        string other = Path.Combine(AppContext.BaseDirectory, "libnlother.so");
        Console.WriteLine($"mutex Gate 0x{Native.GateAddress():x}");
        // Every first call of a P/Invoke resolves it with dlopen, which takes the loader lock: resolve them all here,
        // before the lock is held for good, so that the only waits on it are the ones this mode builds (and this
        // thread's own looks at /proc do not wait on it either).
        Native.DlOpen(other, Native.RtldNow);
        Native.ConstructorEntered();
        Blocked.WaitFor([], []);
        using var gateTaken = new ManualResetEventSlim();
        int loaderTid = 0, keeperTid = 0;
        Blocked.Start("gatekeeper", () =>
        {
            Native.GateTake();
            gateTaken.Set();
            while (Native.ConstructorEntered() == 0)
                Thread.Sleep(10);
            keeperTid = Blocked.Say("Gate", "LoaderLock");
            Native.DlOpen(other, Native.RtldNow);
            Console.WriteLine("unreachable");
        });
        Blocked.Start("loader", () =>
        {
            gateTaken.Wait();
            loaderTid = Blocked.Say("LoaderLock", "Gate");
            Native.DlOpen(slow, Native.RtldNow);
            Console.WriteLine("unreachable");
        });
        while (Volatile.Read(ref loaderTid) == 0 || Volatile.Read(ref keeperTid) == 0)
            Thread.Sleep(10);
        Blocked.WaitFor([], [loaderTid, keeperTid]);
        Console.WriteLine($"loaderlock owner os {loaderTid}");
    }
}
