namespace DiagExt.Core.Detectors.LoaderLock;

/// <summary>How sure the dump makes a deadlock: what the owner waits for, and whether only the threads behind the lock could end it.</summary>
internal enum DeadlockCertainty
{
    /// <summary>No cycle shown (a spin lock, a wait for something a free thread can give, nothing behind the lock).</summary>
    None,

    /// <summary>
    /// The owner waits for something (an event, a semaphore, a mutex, or an object the dump does not name) that the
    /// threads blocked behind the lock could give; the dump cannot say no one else would.
    /// </summary>
    Likely,

    /// <summary>The owner waits for a critical section held by a thread behind the lock, or for a thread behind it to end.</summary>
    Certain,
}

internal static class DeadlockCertaintyText
{
    /// <summary>The JSON spelling.</summary>
    public static string Key(DeadlockCertainty certainty) => certainty switch
    {
        DeadlockCertainty.Certain => "certain",
        DeadlockCertainty.Likely => "likely",
        _ => "none",
    };
}
