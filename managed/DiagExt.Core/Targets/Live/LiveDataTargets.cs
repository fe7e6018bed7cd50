using DiagExt.Core.Errors;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Targets.Live;

/// <summary>
/// Opens ClrMD over a live process so that the process is always left running, however diagext ends
/// (done, Ctrl+C, an error, or killed):
/// - Linux: threads stopped by <see cref="LinuxThreadFreezer"/> (PTRACE_SEIZE), ClrMD reading without
///   suspending on its own; the kernel resumes seized threads if diagext dies.
/// - Windows: ClrMD's PssCaptureSnapshot clone. ClrMD's suspend mode calls SuspendThread, which nothing
///   undoes if diagext is killed; a clone pauses the process only while Windows copies its address space.
/// - macOS: ClrMD's own suspend (not tested).
/// A process a debugger has already stopped (--no-suspend, the WinDbg extension) is read as it is: its
/// threads cannot run, and nothing diagext does needs undoing.
/// </summary>
internal static class LiveDataTargets
{
    /// <summary>The data target and what releases the process (dispose it after the data target).</summary>
    public static (DataTarget DataTarget, IDisposable? Hold) Open(int pid, DataTargetOptions options, bool stop, CancellationToken cancellation)
    {
        if (!stop)
            return (DataTarget.AttachToProcess(pid, suspend: false, options), null);
        if (OperatingSystem.IsLinux())
        {
            LinuxThreadFreezer freezer = LinuxThreadFreezer.Freeze(pid, cancellation);
            try
            {
                return (DataTarget.AttachToProcess(pid, suspend: false, options), freezer);
            }
            catch
            {
                freezer.Dispose();
                throw;
            }
        }
        if (OperatingSystem.IsWindows())
            return (DataTarget.CreateSnapshotAndAttach(pid, options), null);
        return (DataTarget.AttachToProcess(pid, suspend: true, options), null);
    }

    public static string DescribeFailure(int pid, Exception e)
    {
        if (e is DiagExtException)
            return e.Message;
        string message = e.Message.ReplaceLineEndings(" ");
        if (e is UnauthorizedAccessException || message.Contains("permission", StringComparison.OrdinalIgnoreCase) || message.Contains("EPERM", StringComparison.Ordinal))
            return OperatingSystem.IsLinux()
                ? $"process {pid}: not permitted to attach ({message}); {PtraceAdvice.For(pid)}"
                : $"process {pid}: not permitted to attach ({message}); run diagext as the process's user or as an administrator";
        if (e is ArgumentException || message.Contains("not running", StringComparison.OrdinalIgnoreCase) || message.Contains("No such process", StringComparison.OrdinalIgnoreCase))
            return $"process {pid}: no such process";
        return $"process {pid}: cannot attach: {message}";
    }
}
