namespace Hangs;

/// <summary>
/// Two async methods deadlocked on two SemaphoreSlims: each holds one (its WaitAsync completed) and awaits the
/// other's. No thread is blocked: only the semaphores' queued waiters and the state machines show it.
/// </summary>
internal static class SemaphoreDeadlock
{
    public static readonly SemaphoreSlim Inventory = new(1, 1);
    public static readonly SemaphoreSlim Orders = new(1, 1);
    private static readonly TaskCompletionSource BothHold = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private static int _held;
    public static Task[] Pending = [];

    public static void Run()
    {
        Pending = [Task.Run(ReserveStockAsync), Task.Run(PlaceOrderAsync)];
        for (int i = 0; i < 600 && !(Inventory.CurrentCount == 0 && Orders.CurrentCount == 0 && BothHold.Task.IsCompleted); i++)
            Thread.Sleep(50);
        Thread.Sleep(500); // both continuations have reached their second WaitAsync
        if (Pending.Any(t => t.IsCompleted))
            throw new InvalidOperationException("no deadlock");
        Console.WriteLine("method ReserveStockAsync holds Inventory waits Orders");
        Console.WriteLine("method PlaceOrderAsync holds Orders waits Inventory");
    }

    private static async Task ReserveStockAsync()
    {
        await Inventory.WaitAsync();
        try
        {
            await BothTake();
            await Orders.WaitAsync();
            Orders.Release();
        }
        finally
        {
            Inventory.Release();
        }
    }

    private static async Task PlaceOrderAsync()
    {
        await Orders.WaitAsync();
        try
        {
            await BothTake();
            await Inventory.WaitAsync();
            Inventory.Release();
        }
        finally
        {
            Orders.Release();
        }
    }

    private static Task BothTake()
    {
        if (Interlocked.Increment(ref _held) == 2)
            BothHold.SetResult();
        return BothHold.Task;
    }
}
