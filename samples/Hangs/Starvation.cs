namespace Hangs;

/// <summary>
/// Thread-pool starvation by sync-over-async: the pool is capped at one worker per core, every worker blocks in
/// .Result on a task whose continuation (after Task.Yield) must run on a pool worker, and more work is queued.
/// </summary>
internal static class Starvation
{
    public static void Run()
    {
        int workers = Environment.ProcessorCount;
        ThreadPool.SetMinThreads(workers, workers);
        if (!ThreadPool.SetMaxThreads(workers, workers))
            throw new InvalidOperationException("SetMaxThreads refused");
        for (int i = 0; i < workers + 6; i++)
            ThreadPool.QueueUserWorkItem(_ => OrderService.Load());
        for (int i = 0; i < 600 && !(ThreadPool.ThreadCount >= workers && ThreadPool.PendingWorkItemCount > 0 && OrderService.Blocked >= workers); i++)
            Thread.Sleep(50);
        Thread.Sleep(500);
        Console.WriteLine($"workers {workers} blocked {OrderService.Blocked} queued {ThreadPool.PendingWorkItemCount}");
    }
}

internal static class OrderService
{
    public static int Blocked;

    public static int Load()
    {
        Interlocked.Increment(ref Blocked);
        return LoadAsync().Result;
    }

    private static async Task<int> LoadAsync()
    {
        await Task.Yield();
        return 42;
    }
}
