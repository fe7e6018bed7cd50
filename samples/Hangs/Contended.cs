namespace Hangs;

/// <summary>
/// Busy, contended and healthy, the shape that looks like a chain in one dump: four threads take one Monitor in turn and
/// keep it for a few milliseconds of work, every fourth time sleeping 3 ms inside it (a slow call under a lock), so that
/// most moments show a holder with two or three threads blocked behind it. Nothing is stuck: every holder lets go
/// within milliseconds, and each thread's counter (a local on its stack) moves on every turn.
/// </summary>
internal static class Contended
{
    private static readonly object Gate = new();
    private static long _turns;

    public static void Run()
    {
        for (int t = 0; t < 4; t++)
            Blocked.Start($"contender-{t}", Work);
        while (Interlocked.Read(ref _turns) < 400)
            Thread.Sleep(20);
        Console.WriteLine($"contended: {Interlocked.Read(ref _turns)} turns so far");
    }

    private static void Work()
    {
        for (long i = 0; ; i++)
        {
            lock (Gate)
            {
                Spin(2);
                if (i % 4 == 0)
                    Thread.Sleep(3);
            }
            Interlocked.Increment(ref _turns);
        }
    }

    /// <summary>About <paramref name="ms"/> milliseconds of CPU.</summary>
    private static void Spin(int ms)
    {
        long end = Environment.TickCount64 + ms;
        while (Environment.TickCount64 < end)
            Thread.SpinWait(50);
    }
}
