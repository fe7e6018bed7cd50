using System.Globalization;

namespace DiagExt.Core.Targets.Live;

/// <summary>
/// What to do when Linux refuses to let diagext trace a process, worked out from what this machine says
/// (/proc/self/status, /proc/PID/status, Yama's ptrace_scope) instead of advice that may not apply: telling root
/// to "run as root" helps nobody.
/// </summary>
internal static class PtraceAdvice
{
    private const int CapSysPtrace = 19;

    public static string For(int pid)
    {
        if (Field(pid.ToString(CultureInfo.InvariantCulture), "TracerPid:") is { } tracer && tracer != "0")
            return $"process {tracer} is already tracing it (a debugger?): detach that first";
        int? scope = int.TryParse(Read("/proc/sys/kernel/yama/ptrace_scope")?.Trim(), out int s) ? s : null;
        if (scope == 3)
            return "kernel.yama.ptrace_scope is 3, which forbids every attach until the next reboot; take a dump with the process's own createdump (--snapshot) instead";
        if (HasCapSysPtrace())
            return "diagext already has CAP_SYS_PTRACE, so something else forbids it: a seccomp profile or an LSM (AppArmor, SELinux) of this container or host";
        string? ours = FirstUid("self"), theirs = FirstUid(pid.ToString(CultureInfo.InvariantCulture));
        if (ours is not null && theirs is not null && ours != theirs)
            return $"it runs as uid {theirs} and diagext as uid {ours}: run diagext as that user or as root (or with CAP_SYS_PTRACE)";
        return scope is 1 or 2
            ? $"kernel.yama.ptrace_scope is {scope} (only a parent may attach): run diagext as root, give it CAP_SYS_PTRACE, or set the sysctl to 0"
            : "run diagext as the process's user or as root, or give it CAP_SYS_PTRACE (in a container: --cap-add=SYS_PTRACE)";
    }

    private static bool HasCapSysPtrace() =>
        Field("self", "CapEff:") is { } hex && ulong.TryParse(hex, NumberStyles.HexNumber, CultureInfo.InvariantCulture, out ulong caps) && (caps & (1UL << CapSysPtrace)) != 0;

    /// <summary>The effective uid (the second of "Uid: real effective saved fs").</summary>
    private static string? FirstUid(string process) =>
        Field(process, "Uid:")?.Split((char[]?)null, StringSplitOptions.RemoveEmptyEntries) is { Length: >= 2 } uids ? uids[1] : null;

    private static string? Field(string process, string name) =>
        Read($"/proc/{process}/status")?.Split('\n').FirstOrDefault(l => l.StartsWith(name, StringComparison.Ordinal))?[name.Length..].Trim();

    private static string? Read(string path)
    {
        try
        {
            return File.ReadAllText(path);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }
}
