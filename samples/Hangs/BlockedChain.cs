namespace Hangs;

/// <summary>
/// A chain that is not a cycle: "holder" takes AccountLock and then sleeps (a slow call made under a lock), "second"
/// takes LedgerLock and waits for AccountLock, "third" waits for LedgerLock. Nothing waits on anything circular, so a
/// dump cannot say the process is stuck for good: the hang detector's blocked-chain warning.
/// </summary>
internal static class BlockedChain
{
    public static readonly object AccountLock = new();
    public static readonly object LedgerLock = new();

    public static void Run()
    {
        using var holding = new ManualResetEventSlim();
        using var secondHolds = new ManualResetEventSlim();
        ManualResetEventSlim h = holding, s = secondHolds;
        Thread holder = Blocked.Start("holder", () =>
        {
            lock (AccountLock)
            {
                Blocked.Say("holder", "AccountLock", "nothing");
                h.Set();
                Thread.Sleep(Timeout.Infinite);
            }
        });
        holding.Wait();
        Thread second = Blocked.Start("second", () =>
        {
            lock (LedgerLock)
            {
                Blocked.Say("second", "LedgerLock", "AccountLock");
                s.Set();
                lock (AccountLock)
                    Console.WriteLine("second got AccountLock");
            }
        });
        secondHolds.Wait();
        Thread third = Blocked.Start("third", () =>
        {
            Blocked.Say("third", "nothing", "LedgerLock");
            lock (LedgerLock)
                Console.WriteLine("third got LedgerLock");
        });
        Blocked.WaitFor(holder, second, third);
    }

    /// <summary>
    /// The same stuck chain in a process that keeps allocating and collecting (compacting) beside it: the GC rewrites
    /// references on the blocked threads' stacks between two dumps, which must not read as those threads having run.
    /// </summary>
    public static void RunWhileCollecting()
    {
        for (int t = 0; t < 2; t++)
            Blocked.Start($"allocator-{t}", Allocate);
        Run();
    }

    private static void Allocate()
    {
        var keep = new List<byte[]>();
        for (long i = 0; ; i++)
        {
            keep.Add(new byte[1024 + (int)(i % 4096)]);
            if (keep.Count > 2000)
                keep.RemoveRange(0, 1000);
            if (i % 50_000 == 0)
                GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: true);
        }
    }
}
