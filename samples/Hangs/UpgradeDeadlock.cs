namespace Hangs;

/// <summary>
/// A ReaderWriterLockSlim upgrade that cannot finish: the refresher holds a Monitor and the upgradeable lock and
/// waits for the write lock, which a reader's read lock blocks; the reader waits for the refresher's Monitor.
/// </summary>
internal static class UpgradeDeadlock
{
    public static readonly ReaderWriterLockSlim CacheLock = new();
    public static readonly object RefreshGate = new();

    public static void Run()
    {
        using var readerIn = new ManualResetEventSlim();
        using var upgraderIn = new ManualResetEventSlim();
        Thread reader = Blocked.Start("reader", () =>
        {
            CacheLock.EnterReadLock();
            readerIn.Set();
            upgraderIn.Wait();
            Blocked.Say("reader", "CacheLock(read)", "RefreshGate");
            lock (RefreshGate)
                Console.WriteLine("unreachable");
        });
        readerIn.Wait();
        Thread refresher = Blocked.Start("refresher", () =>
        {
            lock (RefreshGate)
            {
                CacheLock.EnterUpgradeableReadLock();
                upgraderIn.Set();
                Blocked.Say("refresher", "RefreshGate,CacheLock(upgrade)", "CacheLock(write)");
                CacheLock.EnterWriteLock();
                Console.WriteLine("unreachable");
            }
        });
        Blocked.WaitFor(reader, refresher);
        Thread.Sleep(300); // past the spinning phase of EnterWriteLock
    }
}
