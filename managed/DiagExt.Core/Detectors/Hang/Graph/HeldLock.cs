namespace DiagExt.Core.Detectors.Hang;

/// <summary>How a thread holds a lock.</summary>
public enum HoldMode
{
    /// <summary>The one owner of a Monitor or Lock.</summary>
    Owner,
    Read,
    Upgradeable,
    Write,
}

/// <summary>
/// A lock as the target records it: its object, its kind and who holds it. An owner the target names but no thread
/// of the process is (a corrupt or stale id) is kept as <see cref="UnknownOwners"/>, never matched to a thread.
/// </summary>
internal sealed record LockState(ulong Address, string TypeName, LockKindName Kind, IReadOnlyList<(uint OsThreadId, HoldMode Mode)> Holders)
{
    /// <summary>Ids the lock names that match no thread: "managed 9", "OS 0x1234".</summary>
    public IReadOnlyList<string> UnknownOwners { get; init; } = [];

    /// <summary>Extra facts worth printing: "recursion 2", "count 0 of 1, 2 waiting".</summary>
    public string? Detail { get; init; }

    /// <summary>A name the lock has by what it is, not by a static field ("the loader lock (glibc _dl_load_lock)"); null for most.</summary>
    public string? Name { get; init; }
}

/// <summary>The lock families hang reads; "monitor", "lock", "rwlock", "semaphore", "native-mutex" in JSON.</summary>
public enum LockKindName
{
    Monitor,
    Lock,
    RwLock,
    Semaphore,

    /// <summary>A lock waited for in native code: a pthread mutex (Linux) or a Win32 critical section (Windows).</summary>
    NativeMutex,
}
