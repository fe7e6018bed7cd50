using Microsoft.Win32.SafeHandles;
using IMemoryReader = DiagExt.Core.Native.IMemoryReader;

namespace DiagExt.Core.Targets.Live;

/// <summary>
/// A stopped Linux process's memory read straight from /proc/PID/mem (pread: no lock, no shared position), so the
/// heap pass walks a live heap in 1 MB blocks as it walks a core file. Through ClrMD's reader alone the walk took
/// about twice as long as createdump needs to dump the same process (bench/live-pause.sh), and the process stays
/// stopped for all of it. Opening needs the same permission as the ptrace stop that precedes it.
/// </summary>
internal sealed class ProcMemory : IMemoryReader, IDisposable
{
    private readonly SafeFileHandle _file;

    private ProcMemory(SafeFileHandle file) => _file = file;

    /// <summary>The reader, or null when the file cannot be opened (the caller reads through ClrMD as before).</summary>
    public static ProcMemory? TryOpen(int pid)
    {
        try
        {
            return new ProcMemory(File.OpenHandle($"/proc/{pid}/mem", FileMode.Open, FileAccess.Read, FileShare.ReadWrite));
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>
    /// The bytes up to the first one not mapped: the kernel returns a short read at the end of a mapping and EIO
    /// when the first page is not mapped.
    /// </summary>
    public int ReadMemory(ulong address, Span<byte> buffer)
    {
        int total = 0;
        while (total < buffer.Length && address + (ulong)total <= long.MaxValue)
        {
            int read;
            try
            {
                read = RandomAccess.Read(_file, buffer[total..], (long)(address + (ulong)total));
            }
            catch (IOException)
            {
                break;
            }
            if (read <= 0)
                break;
            total += read;
        }
        return total;
    }

    public void Dispose() => _file.Dispose();
}
