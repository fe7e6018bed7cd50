namespace Hangs;

/// <summary>Lock-order deadlocks on Monitor (C# lock on an object): the locks live in static fields, as a service's would.</summary>
internal static class MonitorDeadlock
{
    public static readonly object AccountLock = new();
    public static readonly object LedgerLock = new();
    public static readonly object AuditLock = new();

    /// <summary>The threads of the last cycle built, by name, for modes that wait on them (join).</summary>
    public static readonly Dictionary<string, Thread> Started = [];

    public static void TwoThreads()
    {
        using var bothHold = new Barrier(2);
        Thread a = Blocked.Start("transfer", () => Take(AccountLock, "AccountLock", LedgerLock, "LedgerLock", bothHold));
        Thread b = Blocked.Start("audit", () => Take(LedgerLock, "LedgerLock", AccountLock, "AccountLock", bothHold));
        Blocked.WaitFor(a, b);
        Started["transfer"] = a;
        Started["audit"] = b;
    }

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

    private static void Take(object first, string firstName, object second, string secondName, Barrier allHold)
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
