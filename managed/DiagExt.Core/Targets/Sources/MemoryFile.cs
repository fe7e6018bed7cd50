using System.Runtime.InteropServices;
using Microsoft.Win32.SafeHandles;

namespace DiagExt.Core.Targets.Sources;

/// <summary>
/// A Linux memfd: a file that lives only in memory, reachable as /proc/self/fd/N, so every reader that
/// wants a path (ClrMD, DiagExt's own) can read unpacked bytes without anything written to disk.
/// It is freed when its last handle closes, also when diagext is killed.
/// </summary>
internal static class MemoryFile
{
    private const uint CloseOnExec = 1; // MFD_CLOEXEC: children (createdump, workers) must not inherit it

    [DllImport("libc", EntryPoint = "memfd_create", SetLastError = true)]
    private static extern int MemfdCreate(string name, uint flags);

    public static bool IsSupported => OperatingSystem.IsLinux();

    public static FileStream? TryCreate(string name)
    {
        if (!IsSupported)
            return null;
        int fd;
        try
        {
            fd = MemfdCreate(name, CloseOnExec);
        }
        catch (Exception e) when (e is DllNotFoundException or EntryPointNotFoundException)
        {
            return null;
        }
        if (fd < 0)
            return null;
        return new FileStream(new SafeFileHandle(fd, ownsHandle: true), FileAccess.ReadWrite);
    }
}
