using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>One blocked thread: where it waits (<see cref="Site"/>) and on what, when its wait's stack range shows it.</summary>
internal sealed record ThreadWait(TargetThread Thread, WaitFrames.Site Site, ClrObject Target)
{
    public ManagedFrame WaitFrame => Thread.Frames[Site.WaitFrame];

    public ManagedFrame? UserFrame => Site.UserFrame >= 0 ? Thread.Frames[Site.UserFrame] : null;

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

    public bool IsLockWait => Site.Kind is WaitKind.MonitorEnter or WaitKind.LockEnter or WaitKind.ReadLock or WaitKind.UpgradeableLock or WaitKind.WriteLock;
}
