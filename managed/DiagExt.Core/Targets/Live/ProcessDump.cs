using DiagExt.Core.Errors;

namespace DiagExt.Core.Targets.Live;

/// <summary>
/// A dump of a live process written to a file that stays (what 'diagext watch' leaves when it sees a hang): on Linux by
/// the process's own createdump (full memory with the heap; the process pauses only while it writes).
/// </summary>
public static class ProcessDump
{
    /// <returns>The file written and how long the process was paused for it.</returns>
    public static (string Path, TimeSpan Writing) Write(int pid, string path, CancellationToken cancellation)
    {
        if (!OperatingSystem.IsLinux())
            throw new DiagExtException($"process {pid}: writing a dump of a live process is done with createdump on Linux only, so far");
        CreateDumpSnapshot.Written written = CreateDumpSnapshot.Write(pid, _ => path, cancellation);
        return (written.Path, written.Writing);
    }
}
