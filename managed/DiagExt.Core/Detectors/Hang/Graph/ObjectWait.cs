namespace DiagExt.Core.Detectors.Hang;

/// <summary>Where the chain behind a wait on a task, a thread or a ManualResetEventSlim ends (<see cref="WaitFollower"/>).</summary>
internal enum WaitEnd
{
    /// <summary>Another thread must move first: the joined thread, or the thread running the awaited task. An edge of the graph.</summary>
    Thread,

    /// <summary>A task with no delegate and no async method (a TaskCompletionSource's): only code calling SetResult completes it.</summary>
    Promise,

    /// <summary>A ManualResetEventSlim not set: only code calling Set wakes its waiters; it has no owner.</summary>
    ResetEvent,

    /// <summary>Task.Delay: a timer completes it. Not a hang.</summary>
    Timer,

    /// <summary>A SemaphoreSlim.WaitAsync node: a Release completes it; the semaphore has no owner.</summary>
    Semaphore,

    /// <summary>A pending socket receive or send (<see cref="RemoteAwait"/>): only the remote peer, or a timeout, ends it. EndObject is the operation.</summary>
    Remote,

    /// <summary>Completed already, queued, or something hang does not follow (Task.Yield, a ValueTask source, a WhenAll promise).</summary>
    Other,

    /// <summary>
    /// An async method of the chain resumes only on a SynchronizationContext (or TaskScheduler) that one thread runs:
    /// <see cref="ObjectWait.Blocker"/> is that thread, the waiter itself when it waits on its own context (<see cref="ObjectWait.Context"/>).
    /// </summary>
    Context,

    /// <summary>The chain loops or is longer than <see cref="WaitFollower.MaxSteps"/>: hostile or corrupt data.</summary>
    Cut,
}

/// <summary>
/// A thread's wait on an object without an owner field (Task.Wait/.Result/GetResult/WaitAll, Thread.Join,
/// ManualResetEventSlim.Wait), followed to what would end it: <see cref="Steps"/> are the async methods passed on the
/// way ("suspended at await 0" for the waited task's own method, "task of async X 0x.. suspended at await 1" after it), <see cref="End"/> what the chain ends in, <see cref="EndObject"/> that
/// object (the promise task, the MRES, the semaphore; 0 for none), <see cref="Blocker"/> the thread that must move
/// first when the end is a thread.
/// </summary>
internal sealed record ObjectWait(ulong Waited, string WaitedName, IReadOnlyList<string> Steps, WaitEnd End, ulong EndObject, string EndText, uint? Blocker)
{
    /// <summary>What ties the chain to a context, for <see cref="WaitEnd.Context"/>.</summary>
    public ContextWait? Context { get; init; }

    /// <summary>"task of async FetchAsync 0x7f.. (suspended at await 0), Task&lt;String&gt; 0x7f.. is a promise ..." for evidence lines.</summary>
    public string Describe() =>
        $"{WaitedName} 0x{Waited:x}" + (Steps.Count > 0 ? $" ({string.Join(" -> ", Steps)})" : "") + $", {EndText}";
}
