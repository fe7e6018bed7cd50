using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// One blocked thread: where it waits (<see cref="Site"/>) and on what, when its wait's stack range shows it. A wait in
/// native code (a pthread mutex, a critical section) has no managed wait frame and no object: <see cref="NativeLock"/> is the lock's
/// address and <see cref="NativeFrame"/> the native function it waits in.
/// </summary>
internal sealed record ThreadWait(TargetThread Thread, WaitFrames.Site Site, ClrObject Target)
{
    /// <summary>The address of the native lock waited for (a pthread mutex, a critical section); 0 for a managed wait.</summary>
    public ulong NativeLock { get; init; }

    /// <summary>The native function the wait is in ("libc.so.6!pthread_mutex_lock", "ntdll!RtlEnterCriticalSection"), as a frame without a managed method.</summary>
    public ManagedFrame? NativeFrame { get; init; }

    public ManagedFrame WaitFrame => NativeFrame ?? Thread.Frames[Site.WaitFrame];

    /// <summary>The address of the lock or object waited for; 0 when the wait's object was not found.</summary>
    public ulong WaitedAddress => NativeLock != 0 ? NativeLock : Target.IsNull ? 0 : Target.Address;

    public ManagedFrame? UserFrame => Site.UserFrame >= 0 ? Thread.Frames[Site.UserFrame] : null;

    /// <summary>Where the wait is, as the reports word it: "Monitor.Enter &lt;- OrderService.Load" (the wait's frame, then the first user code).</summary>
    public string Where => FirstUserCode is { } user ? $"{WaitFrame.ShortName} <- {user.ShortName}" : WaitFrame.ShortName;

    /// <summary>The first frame of the user's own code from the wait outwards, for "OrderService.Load -> Task.Result".</summary>
    public ManagedFrame? FirstUserCode
    {
        get
        {
            IReadOnlyList<ManagedFrame> frames = Thread.Frames;
            for (int i = Math.Max(Site.UserFrame, 0); i < frames.Count; i++)
                if (frames[i].IsUserCode)
                    return frames[i];
            return null;
        }
    }

    public bool IsLockWait => Site.Kind is WaitKind.MonitorEnter or WaitKind.LockEnter or WaitKind.ReadLock or WaitKind.UpgradeableLock or WaitKind.WriteLock or WaitKind.NativeMutex;
}
