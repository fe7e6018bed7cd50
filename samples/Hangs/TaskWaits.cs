namespace Hangs;

/// <summary>
/// Threads blocked on tasks, threads and events rather than on locks (issue 27, source 5): each mode prints who it
/// blocked and on what, as the lock modes do.
/// </summary>
internal static class TaskWaits
{
    public static readonly object CacheLock = new();

    /// <summary>
    /// "joiner" joins "transfer", one of a two-thread Monitor cycle (monitor2): it waits on the cycle without holding or
    /// wanting any of its locks.
    /// </summary>
    public static void JoinOntoDeadlock()
    {
        MonitorDeadlock.TwoThreads();
        Thread transfer = FindThread("transfer");
        Thread joiner = Blocked.Start("joiner", () =>
        {
            Blocked.Say("joiner", "nothing", "transfer");
            transfer.Join();
        });
        Blocked.WaitFor(joiner);
    }

    /// <summary>"sleeper" waits on a ManualResetEventSlim only its own stack holds: nothing can ever set it.</summary>
    public static void ResetEventNeverSet()
    {
        Thread sleeper = Blocked.Start("sleeper", () =>
        {
            Blocked.Say("sleeper", "nothing", "ManualResetEventSlim");
            var never = new ManualResetEventSlim();
            never.Wait();
            GC.KeepAlive(never);
        });
        Blocked.WaitFor(sleeper);
    }

    /// <summary>
    /// Sync-over-async under a lock: "refresher" takes CacheLock and blocks in .Wait() on RefreshAsync, whose
    /// continuation (after a Task.Delay, on a pool thread) takes CacheLock: the pool thread waits for the refresher's
    /// lock, the refresher for the task the pool thread runs.
    /// </summary>
    public static void TaskWaitUnderLock()
    {
        Thread refresher = Blocked.Start("refresher", () =>
        {
            lock (CacheLock)
            {
                Blocked.Say("refresher", "CacheLock", "RefreshAsync");
                RefreshAsync().Wait();
            }
        });
        for (int i = 0; i < 600 && Volatile.Read(ref _poolWaiting) == 0; i++)
            Thread.Sleep(50);
        Blocked.WaitFor(refresher);
        Thread.Sleep(500); // the pool thread is in Monitor.Enter by now; ThreadState cannot be read for it
    }

    private static int _poolWaiting;

    private static async Task RefreshAsync()
    {
        await Task.Delay(50).ConfigureAwait(false);
        Blocked.Say("pool", "nothing", "CacheLock");
        Volatile.Write(ref _poolWaiting, 1);
        lock (CacheLock)
            Console.WriteLine("refreshed");
    }

    /// <summary>
    /// Healthy waits on tasks: "delayer" in Task.Wait on a 10-minute Task.Delay (a timer will complete it); "consumer" in
    /// .Result on a TaskCompletionSource's task that "producer", running (sleeping in a loop), holds and will complete.
    /// </summary>
    public static void HealthyTaskWaits()
    {
        Thread delayer = Blocked.Start("delayer", () => Task.Delay(TimeSpan.FromMinutes(10)).Wait());
        var reply = new TaskCompletionSource<int>();
        Thread consumer = Blocked.Start("consumer", () => Console.WriteLine(reply.Task.Result));
        Thread producer = Blocked.Start("producer", () =>
        {
            DateTime due = DateTime.UtcNow.AddMinutes(10);
            while (DateTime.UtcNow < due)
                Thread.Sleep(100);
            reply.SetResult(42);
        });
        Blocked.WaitFor(delayer, consumer);
        Console.WriteLine("waits: delayer on Task.Delay(10 min), consumer on a promise the producer holds");
    }

    private static Thread FindThread(string name) =>
        MonitorDeadlock.Started.TryGetValue(name, out Thread? t) ? t : throw new InvalidOperationException($"no thread {name}");
}
