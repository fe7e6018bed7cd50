namespace NativeLocks;

/// <summary>
/// A lock-order deadlock across the boundary: caller holds a Monitor and waits in pthread_mutex_lock; native holds the
/// pthread mutex and waits for the Monitor. SOS sees one thread in Monitor.Enter and one in a P/Invoke.
/// </summary>
internal static class MixedCycle
{
    public static readonly object LedgerLock = new();

    public static void Run()
    {
        nint gate = Native.NewMutex();
        Console.WriteLine($"mutex NativeGate 0x{gate:x}");
        using var bothHold = new Barrier(2);
        int callerTid = 0;
        Thread caller = Blocked.Start("caller", () =>
        {
            lock (LedgerLock)
            {
                bothHold.SignalAndWait();
                callerTid = Blocked.Say("LedgerLock", "NativeGate");
                Native.MutexLock(gate);
                Console.WriteLine("unreachable");
            }
        });
        Thread native = Blocked.Start("native", () =>
        {
            Native.MutexLock(gate);
            bothHold.SignalAndWait();
            Blocked.Say("NativeGate", "LedgerLock");
            lock (LedgerLock)
                Console.WriteLine("unreachable");
        });
        while (Volatile.Read(ref callerTid) == 0)
            Thread.Sleep(10);
        Blocked.WaitFor([native], [callerTid]);
    }
}
