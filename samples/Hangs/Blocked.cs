namespace Hangs;

/// <summary>Waits until threads are blocked for good: each in WaitSleepJoin on several looks in a row.</summary>
internal static class Blocked
{
    public static void WaitFor(params Thread[] threads)
    {
        int steady = 0;
        for (int i = 0; i < 600 && steady < 5; i++)
        {
            Thread.Sleep(50);
            steady = threads.All(t => (t.ThreadState & ThreadState.WaitSleepJoin) != 0) ? steady + 1 : 0;
        }
        if (steady < 5)
            throw new InvalidOperationException("the threads did not block");
    }

    /// <summary>Starts a named background thread.</summary>
    public static Thread Start(string name, Action body)
    {
        var thread = new Thread(() => body()) { IsBackground = true, Name = name };
        thread.Start();
        return thread;
    }

    /// <summary>The ground truth line the tests read: "thread NAME managed ID holds X waits Y".</summary>
    public static void Say(string name, string holds, string waits) =>
        Console.WriteLine($"thread {name} managed {Environment.CurrentManagedThreadId} holds {holds} waits {waits}");
}
