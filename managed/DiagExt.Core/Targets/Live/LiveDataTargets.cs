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
    /// <summary>The opened process: see <see cref="Open"/>.</summary>
    /// <param name="Hold">What releases the process (dispose it after the data target).</param>
    /// <param name="Pause">The pause so far (null when diagext does not stop the process, or on macOS, where ClrMD's suspend is not timed).</param>
    /// <param name="Memory">The stopped process's memory read in bulk (Linux, <see cref="ProcMemory"/>), or null.</param>
    public sealed record Opened(DataTarget DataTarget, IDisposable? Hold, Func<ProcessPause>? Pause, ProcMemory? Memory = null);

    public static Opened Open(int pid, DataTargetOptions options, bool stop, CancellationToken cancellation)
    {
        if (!stop)
            return new(DataTarget.AttachToProcess(pid, suspend: false, options), null, null);
        if (OperatingSystem.IsLinux())
        {
            LinuxThreadFreezer freezer = LinuxThreadFreezer.Freeze(pid, cancellation);
            try
            {
                // Only a stopped process is read in bulk: a running one changes under a 1 MB block.
                return new(DataTarget.AttachToProcess(pid, suspend: false, options), freezer, () => new ProcessPause(freezer.Paused, PauseCause.Ptrace), ProcMemory.TryOpen(pid));
            }
            catch
            {
                freezer.Dispose();
                throw;
            }
        }
        if (OperatingSystem.IsWindows())
        {
            // The process is paused while Windows clones it, inside this call: its length bounds the pause.
            var cloning = System.Diagnostics.Stopwatch.StartNew();
            DataTarget clone = DataTarget.CreateSnapshotAndAttach(pid, options);
            var pause = new ProcessPause(cloning.Elapsed, PauseCause.Clone);
            return new(clone, null, () => pause);
        }
        return new(DataTarget.AttachToProcess(pid, suspend: true, options), null, null);
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
