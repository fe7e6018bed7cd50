namespace NativeLocks;

/// <summary>Starts the modes' threads and waits until they are blocked for good.</summary>
internal static class Blocked
{
    /// <summary>The futex system call's number on x86-64 (202) and arm64 (98).</summary>
    private static readonly string FutexCall = System.Runtime.InteropServices.RuntimeInformation.ProcessArchitecture == System.Runtime.InteropServices.Architecture.Arm64 ? "98" : "202";

    public static Thread Start(string name, Action body)
    {
        var thread = new Thread(() => body()) { IsBackground = true, Name = name };
        thread.Start();
        return thread;
    }

    /// <summary>
    /// Waits until each managed thread is in WaitSleepJoin and each OS thread id in <paramref name="native"/> sits in the
    /// futex call (/proc/self/task/TID/syscall), five looks in a row.
    /// </summary>
    public static void WaitFor(Thread[] managed, int[] native)
    {
        InFutex(Native.GetTid()); // its file reads resolved before any lock is held
        int steady = 0;
        for (int i = 0; i < 600 && steady < 5; i++)
        {
            Thread.Sleep(50);
            bool all = managed.All(t => (t.ThreadState & ThreadState.WaitSleepJoin) != 0) && native.All(InFutex);
            steady = all ? steady + 1 : 0;
        }
        if (steady < 5)
            throw new InvalidOperationException("the threads did not block");
    }

    private static bool InFutex(int tid)
    {
        try
        {
            string call = File.ReadAllText($"/proc/self/task/{tid}/syscall");
            return call.Split(' ')[0] == FutexCall;
        }
        catch (IOException)
        {
            return false;
        }
    }

    /// <summary>The ground truth line the tests read: "thread NAME managed ID os TID holds X waits Y".</summary>
    public static int Say(string holds, string waits)
    {
        int tid = Native.GetTid();
        Console.WriteLine($"thread {Thread.CurrentThread.Name} managed {Environment.CurrentManagedThreadId} os {tid} holds {holds} waits {waits}");
        return tid;
    }
}
