using DiagExt.Core.Native.Elf;

namespace DiagExt.Core.Targets.CpuTime;

/// <summary>Thread times from an ELF core's NT_PRSTATUS notes.</summary>
internal static class ElfThreadTimesReader
{
    public static ThreadTimes Read(ElfCoreFile core)
    {
        IReadOnlyList<ElfThreadStatus> statuses = core.ReadThreadStatuses();
        if (statuses.Count == 0)
            return ThreadTimes.Unavailable("CPU time not recorded in this dump (no NT_PRSTATUS notes)");
        // createdump zero-fills pr_utime/pr_stime; all-zero times mean "not recorded", never "0 s".
        if (statuses.All(s => s.UserTime == TimeSpan.Zero && s.SystemTime == TimeSpan.Zero))
            return ThreadTimes.Unavailable("CPU time not recorded in this dump (createdump leaves NT_PRSTATUS times empty; a kernel-written core or a live attach has them)");
        var byThread = new Dictionary<uint, ThreadCpuTime>();
        foreach (ElfThreadStatus s in statuses)
            byThread.TryAdd(s.ThreadId, new ThreadCpuTime(s.UserTime, s.SystemTime));
        return ThreadTimes.From(byThread, "ELF core NT_PRSTATUS notes");
    }
}
