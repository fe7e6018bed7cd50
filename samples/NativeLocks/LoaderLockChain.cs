namespace NativeLocks;

/// <summary>
/// glibc's loader lock held by a constructor that sleeps for good (no lock, no owner: it waits for a flag): thread
/// loader's dlopen never returns, and threads first and second, each calling dlopen, wait behind it. No cycle: a chain.
/// </summary>
internal static class LoaderLockChain
{
    public static void Run()
    {
        string stuck = Path.Combine(AppContext.BaseDirectory, "libnlstuckinit.so");
        string other = Path.Combine(AppContext.BaseDirectory, "libnlother.so");
        // As in LoaderLockCycle: every P/Invoke resolved before the loader lock is held for good.
        Native.DlOpen(other, Native.RtldNow);
        Native.ConstructorEntered();
        Blocked.WaitFor([], []);
        // The waiting threads start before the lock is held for good: a new thread's start-up needs the loader lock too.
        using var go = new ManualResetEventSlim();
        int[] waiters = new int[2];
        for (int i = 0; i < waiters.Length; i++)
        {
            int slot = i;
            Blocked.Start(i == 0 ? "first" : "second", () =>
            {
                go.Wait();
                waiters[slot] = Blocked.Say("nothing", "LoaderLock");
                Native.DlOpen(other, Native.RtldNow);
            });
        }
        int loaderTid = 0;
        Blocked.Start("loader", () =>
        {
            loaderTid = Blocked.Say("LoaderLock", "nothing");
            Native.DlOpen(stuck, Native.RtldNow);
        });
        while (Native.ConstructorEntered() == 0)
            Thread.Sleep(10);
        go.Set();
        while (Volatile.Read(ref waiters[0]) == 0 || Volatile.Read(ref waiters[1]) == 0)
            Thread.Sleep(10);
        Blocked.WaitFor([], waiters);
        Console.WriteLine($"loaderlock owner os {loaderTid}");
    }
}
