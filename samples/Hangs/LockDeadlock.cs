namespace Hangs;

/// <summary>The three-thread cycle and bystander on System.Threading.Lock (.NET 9+): not in the sync-block table.</summary>
internal static class LockDeadlock
{
    public static readonly Lock AccountLock = new();
    public static readonly Lock LedgerLock = new();
    public static readonly Lock AuditLock = new();

    public static void ThreeThreadsAndBystander()
    {
        using var allHold = new Barrier(3);
        Thread a = Blocked.Start("first", () => Take(AccountLock, "AccountLock", LedgerLock, "LedgerLock", allHold));
        Thread b = Blocked.Start("second", () => Take(LedgerLock, "LedgerLock", AuditLock, "AuditLock", allHold));
        Thread c = Blocked.Start("third", () => Take(AuditLock, "AuditLock", AccountLock, "AccountLock", allHold));
        Blocked.WaitFor(a, b, c);
        Thread bystander = Blocked.Start("bystander", () =>
        {
            Blocked.Say("bystander", "nothing", "AccountLock");
            lock (AccountLock)
                Console.WriteLine("bystander got AccountLock");
        });
        Blocked.WaitFor(a, b, c, bystander);
    }

    private static void Take(Lock first, string firstName, Lock second, string secondName, Barrier allHold)
    {
        lock (first)
        {
            allHold.SignalAndWait();
            Blocked.Say(Thread.CurrentThread.Name!, firstName, secondName);
            lock (second)
                Console.WriteLine("unreachable");
        }
    }
}
