namespace Hangs;

/// <summary>
/// Healthy first, hung later: the contended workers run as in "contended", and after a delay (the second argument, in
/// seconds; default 8) two more threads take AccountLock and LedgerLock in opposite order and deadlock, each saying so.
/// What 'diagext watch' must catch once it happens, and not before.
/// </summary>
internal static class LateDeadlock
{
    public static void Run(TimeSpan delay)
    {
        Contended.Run();
        Blocked.Start("late", () =>
        {
            Thread.Sleep(delay);
            Console.WriteLine("deadlocking now");
            MonitorDeadlock.TwoThreads();
            Console.WriteLine("DEADLOCKED");
        });
    }
}
