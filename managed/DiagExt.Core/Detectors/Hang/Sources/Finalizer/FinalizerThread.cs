using DiagExt.Core.Targets;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// The runtime's finalizer thread and what it is doing. Idle, it waits for work in native code
/// (<c>FinalizerThread::WaitForFinalizerEvent</c>) with no managed frame: seen in every .NET 10 dump of samples/Hangs.
/// Working, it runs <c>GC.RunFinalizers</c> (.NET 8+; the native loop before) and the object's <c>Finalize</c> above it,
/// and whatever that calls; blocked, the graph has its wait like any thread's.
/// </summary>
internal sealed record FinalizerThread(TargetThread Thread, string? Finalizing)
{
    /// <summary>The finalizer thread of the target, or null when the runtime has none (or it never started).</summary>
    public static FinalizerThread? Of(Target target)
    {
        TargetThread? thread = target.Threads.FirstOrDefault(t => t.ClrThread?.IsFinalizer == true);
        return thread is null ? null : new FinalizerThread(thread, FinalizeFrame(thread.Frames));
    }

    /// <summary>Whether it has no managed frame: waiting for work, not running a Finalize.</summary>
    public bool IsIdle => Thread.Frames.All(f => f.MethodName is null);

    /// <summary>The type whose Finalize runs now ("Hangs.CacheEntry"): the innermost Finalize frame, or null.</summary>
    private static string? FinalizeFrame(IReadOnlyList<Targets.ManagedFrame> frames)
    {
        foreach (Targets.ManagedFrame frame in frames)
            if (frame.MethodName == HangNames.FinalizeMethod && frame.TypeName is { } type)
                return type;
        return null;
    }
}
