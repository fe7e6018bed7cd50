namespace DiagExt.Core.Detectors.Hang;

/// <summary>What a blocked thread waits in, decided from its innermost frames (<see cref="WaitFrames"/>).</summary>
public enum WaitKind
{
    /// <summary>Monitor.Enter (C# lock on an object): waits for the owner to exit.</summary>
    MonitorEnter,

    /// <summary>Monitor.Wait: waits for a pulse; it holds nothing while it waits.</summary>
    MonitorWait,

    /// <summary>System.Threading.Lock (.NET 9+).</summary>
    LockEnter,

    ReadLock,
    UpgradeableLock,
    WriteLock,

    /// <summary>SemaphoreSlim.Wait: no owner, any thread may Release.</summary>
    Semaphore,

    /// <summary>Task.Wait, .Result, GetAwaiter().GetResult(), WaitAll.</summary>
    Task,

    /// <summary>Thread.Join: waits for another thread to end.</summary>
    Join,

    /// <summary>ManualResetEventSlim.Wait.</summary>
    ResetEvent,

    /// <summary>WaitHandle.WaitOne/WaitAny/WaitAll on an event, mutex or semaphore: no owner is known.</summary>
    Handle,

    Sleep,

    /// <summary>A native lock: pthread_mutex_lock (Linux) or EnterCriticalSection (Windows); its owner's id is in the lock.</summary>
    NativeMutex,

    /// <summary>A sync socket receive, send or connect (Socket.Receive, NetworkStream.Read, ...): only the remote peer ends it.</summary>
    Socket,
}
