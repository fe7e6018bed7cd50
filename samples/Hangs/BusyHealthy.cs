namespace Hangs;

/// <summary>
/// Busy and contended, and healthy: threads fight over a Monitor, a Lock, a ReaderWriterLockSlim and a
/// SemaphoreSlim (sync and async), never holding one while taking another, and pool work comes and goes.
/// </summary>
internal static class BusyHealthy
{
    private static readonly object Gate = new();
    private static readonly Lock Counter = new();
    private static readonly ReaderWriterLockSlim Table = new();
    private static readonly SemaphoreSlim Slots = new(2, 2);
    private static long _work;

    public static void Run()
    {
        for (int t = 0; t < 4; t++)
        {
            int id = t;
            Blocked.Start($"worker-{t}", () => Work(id));
        }
        for (int t = 0; t < 4; t++)
            _ = Task.Run(AsyncWork);
        for (int i = 0; i < 200 && Interlocked.Read(ref _work) < 10_000; i++)
            Thread.Sleep(50);
        Console.WriteLine($"busy: {Interlocked.Read(ref _work)} steps so far");
    }

    private static void Work(int id)
    {
        for (long i = 0; ; i++)
        {
            lock (Gate)
                Spin(50);
            lock (Counter)
                Spin(20);
            if (id % 2 == 0)
            {
                Table.EnterReadLock();
                Spin(30);
                Table.ExitReadLock();
            }
            else
            {
                Table.EnterWriteLock();
                Spin(10);
                Table.ExitWriteLock();
            }
            Slots.Wait();
            Spin(20);
            Slots.Release();
            Interlocked.Increment(ref _work);
            if (i % 200 == 0)
                Thread.Sleep(1);
        }
    }

    private static async Task AsyncWork()
    {
        while (true)
        {
            await Slots.WaitAsync();
            try
            {
                await Task.Delay(1);
            }
            finally
            {
                Slots.Release();
            }
            Interlocked.Increment(ref _work);
        }
    }

    private static void Spin(int n)
    {
        for (int i = 0; i < n; i++)
            Thread.SpinWait(10);
    }
}
