namespace DiagExt.Core.Detectors.Hang;

/// <summary>What to change, per kind of hang.</summary>
internal static class HangAdvice
{
    public const string Deadlock =
        "Take locks in one global order everywhere (here the cycle takes them in opposite orders), or hold one lock at a time; " +
        "where a lock must be taken while holding another, Monitor.TryEnter/Lock.TryEnter/TryEnterWriteLock with a timeout turns the hang into an error you can log.";

    public const string RwLockDeadlock =
        "Do not wait for another lock while holding a ReaderWriterLockSlim read lock, and do not take the upgradeable lock while holding a lock its readers wait for: " +
        "take the locks in one global order, or release the read lock first; TryEnterWriteLock with a timeout turns the hang into an error you can log.";

    public const string LoaderLockDeadlock =
        "Code that runs under glibc's loader lock (a library constructor, __attribute__((constructor)) or a C++ static initialiser, run by dlopen) must not wait for " +
        "another thread: every dlopen, dlclose and first P/Invoke into a library (the runtime resolves it with dlopen) waits for that lock. Move the work out of the " +
        "constructor into an explicit init call, or do not hold what the constructor waits for while loading libraries.";

    public const string AsyncDeadlock =
        "Acquire the semaphores in one global order in every async method (here they await them in opposite orders), or hold one at a time; " +
        "WaitAsync with a timeout (or a CancellationToken) turns the hang into an error you can log.";

    public const string Starvation =
        "Never block a pool thread on a task (.Result, .Wait(), GetAwaiter().GetResult()): await it all the way up. The blocked workers wait for continuations " +
        "that need a pool thread themselves; raising ThreadPool.SetMinThreads only hides it until the next burst.";

    public const string TaskDeadlock =
        "Do not block on a task (.Wait(), .Result, GetResult()) or Join a thread while holding a lock the task's code or that thread needs: " +
        "await instead of blocking, release the lock before waiting, or take the lock in the awaited code only; a Wait with a timeout turns the hang into an error you can log.";

    public const string ContextDeadlock =
        "Do not block on async code on a thread that runs a SynchronizationContext (a UI thread, AsyncContext.Run, a classic ASP.NET request): await all the way up; " +
        "where a library must block, make its awaits ConfigureAwait(false) so their continuations do not need the blocked thread, or run the async work with Task.Run and block outside the context.";

    public const string Unsignalled =
        "A thread blocked on a task or event that no running code references waits for a completion that may never come: await it with a timeout or a CancellationToken " +
        "(Task.WaitAsync(TimeSpan), Wait(TimeSpan)), and make sure every path that creates a TaskCompletionSource or ManualResetEventSlim ends in SetResult/SetException/Set.";

    public const string BlockedChain =
        "The chain ends in a thread that is not waiting for a lock: see what it does (its stack below); a lock held across slow work (I/O, sleeping, a blocking call) stalls every thread behind it. " +
        "Hold locks for short, CPU-only sections.";

    public const string BlockedFinalizer =
        "A finalizer must never wait: do not take locks, wait on events or tasks, or make blocking calls in Finalize (or in a Dispose(false) it calls); " +
        "release what must be released without synchronisation (a SafeHandle does it for you), and call Dispose so objects are not left to the finalizer at all.";
}
