using System.Runtime.CompilerServices;

namespace Hangs;

/// <summary>
/// The finalizer thread blocked for good: "holder" takes CacheSync and then waits on an event nobody will set; a
/// CacheEntry's finalizer takes CacheSync too, so the finalizer thread blocks in Monitor.Enter behind holder. Every
/// finalizable object that dies after that waits in the f-reachable queue: PendingHandle objects, allocated and
/// collected here, are the queue a real process would grow until it runs out of memory.
/// </summary>
internal static class BlockedFinalizer
{
    public static readonly object CacheSync = new();

    /// <summary>How many PendingHandle objects are left to the stuck finalizer.</summary>
    public const int Pending = 5000;

    private static Thread? s_finalizer;

    private sealed class CacheEntry
    {
        // The classic mistake: Finalize (or a Dispose(false) it calls) takes a lock the rest of the program holds.
        ~CacheEntry()
        {
            Volatile.Write(ref s_finalizer, Thread.CurrentThread);
            Blocked.Say("finalizer", "nothing", "CacheSync");
            lock (CacheSync)
                Console.WriteLine("finalizer got CacheSync");
        }
    }

    public static void Run()
    {
        using var holding = new ManualResetEventSlim();
        ManualResetEventSlim h = holding;
        Thread holder = Blocked.Start("holder", () =>
        {
            lock (CacheSync)
            {
                Blocked.Say("holder", "CacheSync", "event");
                h.Set();
                new ManualResetEventSlim().Wait(); // an event only this stack holds: nothing will set it
            }
        });
        holding.Wait();
        Blocked.WaitFor(holder);
        DropOne();
        Thread finalizer = AwaitFinalizer();
        Blocked.WaitFor(finalizer);
        DropPending(Pending);
        GC.Collect();
        Console.WriteLine($"finalizable Hangs.PendingHandle {Pending}");
        Console.WriteLine($"lock CacheSync {CacheSync.GetType().FullName}");
    }

    /// <summary>Collects until the finalizer thread has started a CacheEntry's Finalize, and returns that thread.</summary>
    private static Thread AwaitFinalizer()
    {
        for (int i = 0; i < 600; i++)
        {
            if (Volatile.Read(ref s_finalizer) is { } thread)
                return thread;
            GC.Collect();
            Thread.Sleep(50);
        }
        throw new InvalidOperationException("the finalizer never ran");
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void DropOne() => _ = new CacheEntry();

    [MethodImpl(MethodImplOptions.NoInlining)]
    internal static void DropPending(int count)
    {
        for (int i = 0; i < count; i++)
            _ = new PendingHandle(i);
    }
}

/// <summary>A finalizable object that does nothing wrong: it only needs the finalizer thread to run once.</summary>
internal sealed class PendingHandle(int id)
{
    private readonly int _id = id;

    ~PendingHandle() => GC.KeepAlive(_id);
}

/// <summary>
/// The milder twin: a finalizer that is slow, not stuck (each SlowResource sleeps 50 ms in Finalize, as one that closes
/// a remote connection might). The finalizer thread is busy, never blocked, and the queue drains at 20 objects a second.
/// </summary>
internal static class SlowFinalizer
{
    public const int Count = 4000;

    private static Thread? s_finalizer;

    internal sealed class SlowResource
    {
        ~SlowResource()
        {
            Volatile.Write(ref s_finalizer, Thread.CurrentThread);
            Thread.Sleep(50);
        }
    }

    public static void Run()
    {
        Drop(Count);
        GC.Collect();
        for (int i = 0; i < 600 && Volatile.Read(ref s_finalizer) is null; i++)
            Thread.Sleep(50);
        if (Volatile.Read(ref s_finalizer) is not { } finalizer)
            throw new InvalidOperationException("the finalizer never ran");
        Console.WriteLine($"thread finalizer managed {finalizer.ManagedThreadId} holds nothing waits nothing");
        Console.WriteLine($"finalizable Hangs.SlowFinalizer+SlowResource {Count}");
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void Drop(int count)
    {
        for (int i = 0; i < count; i++)
            _ = new SlowResource();
    }
}
