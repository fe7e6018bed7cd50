namespace NativeLocks;

/// <summary>One thread waits on a pthread mutex another holds while it sleeps: contention, not a hang (the sleeper runs on).</summary>
internal static class HealthyWait
{
    public static void Run()
    {
        nint gate = Native.NewMutex();
        Console.WriteLine($"mutex NativeGate 0x{gate:x}");
        using var held = new ManualResetEventSlim();
        int waiterTid = 0;
        Thread sleeper = Blocked.Start("sleeper", () =>
        {
            Native.MutexLock(gate);
            Blocked.Say("NativeGate", "nothing");
            held.Set();
            while (true)
                Thread.Sleep(100);
        });
        Blocked.Start("waiter", () =>
        {
            held.Wait();
            waiterTid = Blocked.Say("nothing", "NativeGate");
            Native.MutexLock(gate);
        });
        while (Volatile.Read(ref waiterTid) == 0)
            Thread.Sleep(10);
        Blocked.WaitFor([sleeper], [waiterTid]);
    }
}
