namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// A task chain tied to a SynchronizationContext (or TaskScheduler): <see cref="Method"/> resumes after its await only
/// on <see cref="Context"/>, which <see cref="Thread"/> alone runs. <see cref="Awaited"/> is the task it awaits there (0
/// when unknown); <see cref="Posted"/> says the continuation already left that task for the context's own queue, and
/// <see cref="QueuePath"/> is how the context's objects reach it. <see cref="LoopFrame"/> is the frame of the context's
/// own code on that thread below its wait (its message loop); <see cref="Known"/> what a context of a known type is.
/// </summary>
internal sealed record ContextWait(AsyncWaiter Method, ulong Awaited, bool Posted, ulong Context, string ContextType, bool IsScheduler, uint Thread)
{
    public string? QueuePath { get; init; }

    /// <summary>The awaited task's type, short ("Task+DelayPromise"), for the evidence.</summary>
    public string? AwaitedType { get; init; }

    public string? LoopFrame { get; init; }

    public string? Known { get; init; }

    /// <summary>
    /// Proven that only that thread can run the continuation: it sits in the context's own queue, or the context is of a
    /// type whose posts run on one thread, or that thread runs the context's own loop below its wait. Otherwise the
    /// context's Post might hand the continuation to another thread: said, not claimed.
    /// </summary>
    public bool Proven => QueuePath is not null || Known is not null || LoopFrame is not null;

    /// <summary>"OneThreadContext", "scheduler AsyncContextTaskScheduler".</summary>
    public string ContextName => $"{(IsScheduler ? "TaskScheduler " : "")}{Targets.TypeNames.Short(ContextType)}";
}
