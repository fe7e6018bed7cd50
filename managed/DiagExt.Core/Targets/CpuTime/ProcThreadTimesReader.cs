using System.Globalization;

namespace DiagExt.Core.Targets.CpuTime;

/// <summary>
/// Thread times of a live Linux process from /proc/PID/task/TID/stat, read twice a short window apart
/// so the threads burning CPU right now stand out (the strongest evidence for a spinning thread).
/// </summary>
internal static class ProcThreadTimesReader
{
    // USER_HZ is 100 on every Linux ABI .NET runs on; sysconf(_SC_CLK_TCK) reports it.
    private const double TicksPerSecond = 100.0;

    public static ThreadTimes Sample(int pid, TimeSpan window, CancellationToken cancellation)
    {
        if (!OperatingSystem.IsLinux())
            return ThreadTimes.Unavailable("per-thread CPU time of a live process is read from /proc on Linux only");
        Dictionary<uint, (double User, double Kernel)> first = ReadAll(pid);
        Dictionary<uint, string> firstCalls = ReadSyscalls(pid, first.Keys);
        if (first.Count == 0)
            return ThreadTimes.Unavailable($"CPU time unavailable: /proc/{pid}/task could not be read");
        var stopwatch = System.Diagnostics.Stopwatch.StartNew();
        if (window > TimeSpan.Zero)
            cancellation.WaitHandle.WaitOne(window);
        Dictionary<uint, (double User, double Kernel)> second = ReadAll(pid);
        TimeSpan elapsed = stopwatch.Elapsed;
        Dictionary<uint, string> secondCalls = ReadSyscalls(pid, second.Keys);

        var byThread = new Dictionary<uint, ThreadCpuTime>();
        foreach (var (tid, now) in second)
        {
            TimeSpan? recent = first.TryGetValue(tid, out var before)
                ? TimeSpan.FromSeconds(Math.Max(0, now.User + now.Kernel - before.User - before.Kernel))
                : null;
            bool? sameCall = firstCalls.TryGetValue(tid, out string? a) && secondCalls.TryGetValue(tid, out string? b) ? a == b : null;
            byThread[tid] = new ThreadCpuTime(TimeSpan.FromSeconds(now.User), TimeSpan.FromSeconds(now.Kernel), recent, recent is null ? null : elapsed) { SameSyscallThroughout = sameCall };
        }
        return ThreadTimes.From(byThread, $"/proc/{pid}/task/*/stat, sampled over {elapsed.TotalMilliseconds:0} ms");
    }

    /// <summary>
    /// Each thread's /proc/PID/task/TID/syscall line ("202 0x55d0... 0x80 ..." for a futex wait): a thread blocked in
    /// one wait shows the same line throughout; "running" or an unreadable file (no ptrace access) is left out.
    /// </summary>
    private static Dictionary<uint, string> ReadSyscalls(int pid, IEnumerable<uint> threads)
    {
        var result = new Dictionary<uint, string>();
        foreach (uint tid in threads)
        {
            try
            {
                string line = File.ReadAllText($"/proc/{pid}/task/{tid}/syscall").Trim();
                if (line.Length > 0 && line != "running" && !line.StartsWith('-'))
                    result[tid] = line;
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
            }
        }
        return result;
    }

    private static Dictionary<uint, (double User, double Kernel)> ReadAll(int pid)
    {
        var result = new Dictionary<uint, (double, double)>();
        string taskDir = $"/proc/{pid}/task";
        string[] tasks;
        try
        {
            tasks = Directory.GetDirectories(taskDir);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return result;
        }
        foreach (string dir in tasks)
        {
            if (!uint.TryParse(Path.GetFileName(dir), out uint tid))
                continue;
            try
            {
                if (TryParseStat(File.ReadAllText(Path.Combine(dir, "stat")), out double user, out double kernel))
                    result[tid] = (user, kernel);
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                // The thread exited between listing and reading.
            }
        }
        return result;
    }

    /// <summary>Fields 14 and 15 (utime, stime) counted after the ")" that ends the command name, which may hold spaces.</summary>
    internal static bool TryParseStat(string stat, out double userSeconds, out double kernelSeconds)
    {
        userSeconds = kernelSeconds = 0;
        // fields[0] is field 3 (state); utime is field 14 -> fields[11], stime field 15 -> fields[12].
        if (Live.ProcStatus.StatFields(stat) is not { } fields
            || fields.Length < 13
            || !ulong.TryParse(fields[11], NumberStyles.None, CultureInfo.InvariantCulture, out ulong utime)
            || !ulong.TryParse(fields[12], NumberStyles.None, CultureInfo.InvariantCulture, out ulong stime))
            return false;
        userSeconds = utime / TicksPerSecond;
        kernelSeconds = stime / TicksPerSecond;
        return true;
    }
}
