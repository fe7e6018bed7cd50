using DiagExt.Core.Native.Minidump;

namespace DiagExt.Core.Targets.CpuTime;

/// <summary>Thread times from a minidump's ThreadInfoList stream (written by procdump -ma, not by Wine or createdump).</summary>
internal static class MinidumpThreadTimesReader
{
    public static ThreadTimes Read(MinidumpFile dump)
    {
        if (dump.ThreadInfos is not { } infos)
            return ThreadTimes.Unavailable("CPU time not recorded in this dump (no ThreadInfoList stream; procdump -ma writes one)");
        var byThread = new Dictionary<uint, ThreadCpuTime>();
        foreach (MinidumpThreadInfo info in infos)
            byThread.TryAdd(info.ThreadId, new ThreadCpuTime(info.User, info.Kernel));
        return ThreadTimes.From(byThread, "minidump ThreadInfoList stream");
    }
}
