namespace DiagExt.Tests.Infrastructure;

/// <summary>What /proc says about a live process's threads: run state, tracer, CPU time.</summary>
public static class ProcState
{
    /// <summary>Each thread's state letter (R running, S sleeping, T stopped, t traced-stopped...).</summary>
    public static Dictionary<int, char> States(int pid) =>
        Tasks(pid).ToDictionary(t => t, t => StatFields(pid, t) is { } f ? f[0][0] : '?');

    public static long CpuTicks(int pid) =>
        Tasks(pid).Sum(t => StatFields(pid, t) is { } f ? long.Parse(f[11]) + long.Parse(f[12]) : 0);

    /// <summary>Tracer pid of the thread (0: none).</summary>
    public static int Tracer(int pid, int tid)
    {
        try
        {
            string? line = File.ReadLines($"/proc/{pid}/task/{tid}/status").FirstOrDefault(l => l.StartsWith("TracerPid:", StringComparison.Ordinal));
            return line is null ? 0 : int.Parse(line["TracerPid:".Length..].Trim());
        }
        catch (IOException)
        {
            return 0;
        }
    }

    public static bool AnyThreadTraced(int pid) => Tasks(pid).Any(t => Tracer(pid, t) != 0);

    /// <summary>
    /// True if the process is running freely: no thread traced or stopped, and its threads used CPU during
    /// <paramref name="window"/> (the samples' threads are always busy).
    /// </summary>
    public static (bool Running, string Why) RunsFreely(int pid, TimeSpan window)
    {
        var states = States(pid);
        if (states.Values.Any(s => s is 'T' or 't'))
            return (false, $"stopped threads: {string.Join(' ', states.Select(s => $"{s.Key}:{s.Value}"))}");
        if (AnyThreadTraced(pid))
            return (false, "a thread is still traced");
        long before = CpuTicks(pid);
        Thread.Sleep(window);
        long after = CpuTicks(pid);
        return after > before ? (true, "") : (false, $"no CPU used in {window.TotalMilliseconds} ms ({before} -> {after} ticks)");
    }

    public static IEnumerable<int> Tasks(int pid)
    {
        try
        {
            return Directory.GetDirectories($"/proc/{pid}/task").Select(d => int.Parse(Path.GetFileName(d))).ToList();
        }
        catch (DirectoryNotFoundException)
        {
            return [];
        }
    }

    private static string[]? StatFields(int pid, int tid)
    {
        try
        {
            string stat = File.ReadAllText($"/proc/{pid}/task/{tid}/stat");
            return stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
        }
        catch (IOException)
        {
            return null;
        }
    }
}
