/// <summary>Threads parked in managed code, so the dump has stacks to read as a real service's does.</summary>
static class Waiters
{
    private static readonly ManualResetEventSlim Never = new(false);

    public static void Start(int count)
    {
        for (int i = 0; i < count; i++)
            new Thread(() => Never.Wait()) { IsBackground = true, Name = $"worker {i}" }.Start();
    }
}
