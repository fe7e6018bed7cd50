using System.Diagnostics;
using System.Globalization;
using DiagExt.Core.Errors;
using Microsoft.Diagnostics.NETCore.Client;

namespace DiagExt.Core.Targets.Live;

/// <summary>A .NET process diagext may attach to: its id, its name and its command line (empty where the OS hides it).</summary>
public sealed record DotnetProcess(int Pid, string Name, string CommandLine);

/// <summary>
/// The .NET processes this user can attach to, found as dotnet-dump finds them: by the diagnostic IPC endpoint
/// every .NET Core 3.0+ runtime publishes (Microsoft.Diagnostics.NETCore.Client), less those another user owns
/// (on Linux, unless diagext may trace anyone).
/// </summary>
public static class DotnetProcesses
{
    private const int MaxCommandLine = 4096;

    public static IReadOnlyList<DotnetProcess> Attachable()
    {
        var found = new List<DotnetProcess>();
        bool anyone = !OperatingSystem.IsLinux() || ProcStatus.SelfHasCapSysPtrace();
        string? self = OperatingSystem.IsLinux() ? ProcStatus.EffectiveUid("self") : null;
        foreach (int pid in Published())
        {
            if (pid == Environment.ProcessId)
                continue;
            if (!anyone && ProcStatus.EffectiveUid(pid.ToString(CultureInfo.InvariantCulture)) != self)
                continue;
            if (Describe(pid) is { } process)
                found.Add(process);
        }
        return found;
    }

    /// <summary>The one attachable .NET process with this name; a usage problem, in one line, when there is none or several.</summary>
    public static int ByName(string name)
    {
        IReadOnlyList<DotnetProcess> all = Attachable();
        List<DotnetProcess> named = all.Where(p => string.Equals(p.Name, name, OperatingSystem.IsWindows() ? StringComparison.OrdinalIgnoreCase : StringComparison.Ordinal)).ToList();
        return named.Count switch
        {
            1 => named[0].Pid,
            0 => throw new DiagExtException($"no .NET process named '{name}' that this user can attach to ({all.Count} others: 'diagext ps' lists them)"),
            _ => throw new DiagExtException($"{named.Count} .NET processes are named '{name}' (pids {string.Join(", ", named.Select(p => p.Pid))})", Remedy.PickProcessId),
        };
    }

    /// <summary>
    /// The client library's list; where it fails (it reads every /proc/PID/environ, and a process that ends or a
    /// kernel thread can make that throw), the endpoints in this machine's temp folder, which .NET names
    /// "dotnet-diagnostic-PID-DISAMBIGUATION-socket" (a process with a TMPDIR of its own is then missed).
    /// </summary>
    private static IEnumerable<int> Published()
    {
        try
        {
            return DiagnosticsClient.GetPublishedProcesses().Distinct().Order().ToList();
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or InvalidOperationException)
        {
            if (!OperatingSystem.IsLinux() && !OperatingSystem.IsMacOS())
                throw new DiagExtException($"cannot list the .NET processes: {e.Message}");
            return Directory.EnumerateFiles(Path.GetTempPath(), "dotnet-diagnostic-*-socket")
                .Select(f => Path.GetFileName(f).Split('-'))
                .Where(parts => parts.Length == 5)
                .Select(parts => (Pid: Number(parts[2]), Key: parts[3]))
                .Where(e => e.Pid > 0 && e.Key == StartTime(e.Pid))
                .Select(e => e.Pid)
                .Distinct().Order().ToList();
        }
    }

    /// <summary>
    /// The process's start time in clock ticks (/proc/PID/stat, field 22): what .NET puts in its endpoint's name.
    /// Endpoints of processes that died stay behind and their pids are reused (by a thread, a kernel worker):
    /// only a name whose key matches is a live .NET process.
    /// </summary>
    private static string? StartTime(int pid) =>
        ProcStatus.Read($"/proc/{pid}/stat") is { } stat && ProcStatus.StatFields(stat) is { Length: > 19 } fields ? fields[19] : null;

    private static int Number(string text) => int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out int n) ? n : 0;

    private static DotnetProcess? Describe(int pid)
    {
        try
        {
            using Process process = Process.GetProcessById(pid);
            return new DotnetProcess(pid, process.ProcessName, CommandLine(pid));
        }
        catch (Exception e) when (e is ArgumentException or InvalidOperationException or System.ComponentModel.Win32Exception)
        {
            return null;  // gone since it was listed
        }
    }

    private static string CommandLine(int pid)
    {
        if (!OperatingSystem.IsLinux())
            return "";
        string? raw = ProcStatus.Read($"/proc/{pid}/cmdline");
        if (string.IsNullOrEmpty(raw))
            return "";
        string line = raw.TrimEnd('\0').Replace('\0', ' ');
        return line.Length > MaxCommandLine ? line[..MaxCommandLine] + "..." : line;
    }
}
