using System.Globalization;
using DiagExt.Core.Errors;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Targets.Sources;

/// <summary>
/// A dump's bytes at a path every reader can open, for content that is not a plain file: a gzip or zip
/// member unpacked into memory (a Linux memfd, up to <see cref="Limits.MaxInMemoryUnpackBytes"/>) or else
/// into a temp file whose name is removed as soon as it is open, and a createdump snapshot adopted the same
/// way. Memory stays bounded: one unpacked dump per analysis, never more than the in-memory limit.
/// </summary>
public sealed class UnpackedDump : IDisposable
{
    private const int CopyBufferBytes = 1024 * 1024;

    private readonly FileStream? _holder;
    private readonly string? _deleteOnDispose;

    private UnpackedDump(string path, FileStream? holder, string? deleteOnDispose, bool inMemory, long length)
    {
        Path = path;
        _holder = holder;
        _deleteOnDispose = deleteOnDispose;
        InMemory = inMemory;
        Length = length;
    }

    /// <summary>The path to open: /proc/self/fd/N on Linux, a temp file elsewhere.</summary>
    public string Path { get; }

    public bool InMemory { get; }

    public long Length { get; }

    /// <summary>Copies <paramref name="content"/> out, into memory when <paramref name="expectedLength"/> says it fits.</summary>
    public static UnpackedDump Unpack(Stream content, long? expectedLength, string displayName, Limits limits, CancellationToken cancellation)
    {
        FileStream? inMemory = expectedLength is long n && n <= limits.MaxInMemoryUnpackBytes ? MemoryFile.TryCreate("diagext-dump") : null;
        FileStream target = inMemory ?? CreateTempFile();
        bool memory = inMemory is not null;
        try
        {
            byte[] buffer = new byte[CopyBufferBytes];
            long total = 0;
            while (true)
            {
                cancellation.ThrowIfCancellationRequested();
                int read = content.Read(buffer);
                if (read <= 0)
                    break;
                total += read;
                if (total > limits.MaxUnpackedBytes)
                    throw new DiagExtException($"{displayName}: unpacks to more than {Size(limits.MaxUnpackedBytes)} (diagext's limit for one dump); unpack it yourself if it is real");
                if (memory && total > limits.MaxInMemoryUnpackBytes)
                {
                    // Larger than its header promised: move what we have to disk and go on there.
                    target = SpillToDisk(target);
                    memory = false;
                }
                target.Write(buffer, 0, read);
            }
            target.Flush();
            return Finish(target, memory, total);
        }
        catch (Exception e) when (e is InvalidDataException or IOException && e is not DiagExtException)
        {
            target.Dispose();
            throw new DiagExtException($"{displayName}: compressed, but it cannot be unpacked: {e.Message.ReplaceLineEndings(" ")}", e);
        }
        catch
        {
            target.Dispose();
            throw;
        }
    }

    /// <summary>Takes over a file diagext wrote (a snapshot): on Linux its name goes at once, so nothing is left behind even if diagext is killed.</summary>
    public static UnpackedDump Adopt(string path)
    {
        var holder = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
        return Finish(holder, inMemory: false, holder.Length, path);
    }

    private static UnpackedDump Finish(FileStream holder, bool inMemory, long length, string? path = null)
    {
        if (OperatingSystem.IsLinux())
        {
            if (path is not null)
                TryDelete(path);
            string fdPath = "/proc/self/fd/" + holder.SafeFileHandle.DangerousGetHandle().ToInt64().ToString(CultureInfo.InvariantCulture);
            return new UnpackedDump(fdPath, holder, null, inMemory, length);
        }
        // Elsewhere readers open the file by name and must not meet our write handle: close it, delete on dispose.
        string name = path ?? holder.Name;
        holder.Dispose();
        return new UnpackedDump(name, null, name, inMemory, length);
    }

    private static FileStream CreateTempFile()
    {
        string path = TempArea.NewFilePath(".dump");
        var stream = new FileStream(path, FileMode.CreateNew, FileAccess.ReadWrite, FileShare.ReadWrite | FileShare.Delete, 4096, FileOptions.None);
        if (OperatingSystem.IsLinux())
            TryDelete(path); // the open handle keeps the data; the kernel frees it when diagext exits, however it exits
        return stream;
    }

    private static FileStream SpillToDisk(FileStream memory)
    {
        FileStream disk = CreateTempFile();
        memory.Position = 0;
        memory.CopyTo(disk);
        memory.Dispose();
        return disk;
    }

    private static string Size(long bytes) => bytes >= 1024L * 1024 * 1024
        ? string.Format(CultureInfo.InvariantCulture, "{0:0.#} GiB", bytes / (1024.0 * 1024 * 1024))
        : string.Format(CultureInfo.InvariantCulture, "{0:0.#} MiB", bytes / (1024.0 * 1024));

    internal static void TryDelete(string path)
    {
        try
        {
            File.Delete(path);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
        }
    }

    public void Dispose()
    {
        _holder?.Dispose();
        if (_deleteOnDispose is not null)
            TryDelete(_deleteOnDispose);
    }
}
