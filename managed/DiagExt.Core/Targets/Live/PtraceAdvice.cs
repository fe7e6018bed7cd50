using System.Globalization;

namespace DiagExt.Core.Targets.Live;

/// <summary>
/// What to do when Linux refuses to let diagext trace a process, worked out from what this machine says
/// (/proc/self/status, /proc/PID/status, Yama's ptrace_scope) instead of advice that may not apply: telling root
/// to "run as root" helps nobody.
/// </summary>
internal static class PtraceAdvice
{
    public static string For(int pid)
    {
        if (ProcStatus.Field(pid.ToString(CultureInfo.InvariantCulture), "TracerPid:") is { } tracer && tracer != "0")
            return $"process {tracer} is already tracing it (a debugger?): detach that first";
        int? scope = int.TryParse(ProcStatus.Read("/proc/sys/kernel/yama/ptrace_scope")?.Trim(), out int s) ? s : null;
        if (scope == 3)
            return "kernel.yama.ptrace_scope is 3, which forbids every attach (createdump included) until the next reboot";
        if (ProcStatus.SelfHasCapSysPtrace())
            return "diagext already has CAP_SYS_PTRACE, so something else forbids it: a seccomp profile or an LSM (AppArmor, SELinux) of this container or host";
        string? ours = ProcStatus.EffectiveUid("self"), theirs = ProcStatus.EffectiveUid(pid.ToString(CultureInfo.InvariantCulture));
        if (ours is not null && theirs is not null && ours != theirs)
            return $"it runs as uid {theirs} and diagext as uid {ours}: run diagext as that user or as root (or with CAP_SYS_PTRACE)";
        return scope is 1 or 2
            ? $"kernel.yama.ptrace_scope is {scope} (only a parent may attach): run diagext as root, give it CAP_SYS_PTRACE, or set the sysctl to 0"
            : "run diagext as the process's user or as root, or give it CAP_SYS_PTRACE (in a container: --cap-add=SYS_PTRACE)";
    }
}
