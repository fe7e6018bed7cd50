using DiagExt.Core.Reports;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>A finding's thread entry for a blocked thread: its wait frame, the user frame that waits, its stack and CPU.</summary>
internal static class ThreadRefs
{
    public static ThreadRef For(TargetThread thread, string role, ThreadWait? wait) => new()
    {
        OsThreadId = thread.OsThreadId,
        ManagedThreadId = thread.ManagedThreadId,
        Role = role,
        Frame = wait?.WaitFrame.ShortName,
        CallerFrame = wait?.FirstUserCode?.ShortName ?? wait?.UserFrame?.ShortName,
        Stack = thread.StackText(),
        UserCpu = thread.Cpu?.User,
        KernelCpu = thread.Cpu?.Kernel,
        RecentCpuShare = thread.Cpu?.RecentShare,
        Fingerprint = thread.Fingerprint,
    };

    /// <summary>"0x2c79 (managed 4)".</summary>
    public static string Name(TargetThread thread) => thread.ManagedThreadId is int m ? $"0x{thread.OsThreadId:x} (managed {m})" : $"0x{thread.OsThreadId:x}";
}
