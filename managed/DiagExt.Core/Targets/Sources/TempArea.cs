using System.Globalization;

namespace DiagExt.Core.Targets.Sources;

/// <summary>
/// diagext's private folder for files it must write (unpacked dumps too large for memory, createdump
/// snapshots): $TMPDIR/diagext-PID. Files are removed as soon as they are open (Linux) or on dispose; a
/// folder left by a diagext that was killed is removed by the next diagext that needs the area.
/// </summary>
public static class TempArea
{
    private const string Prefix = "diagext-";
    private static readonly object Gate = new();
    private static string? _folder;

    public static string NewFilePath(string suffix)
    {
        lock (Gate)
        {
            if (_folder is null)
            {
                SweepStale();
                _folder = Path.Combine(Path.GetTempPath(), Prefix + Environment.ProcessId.ToString(CultureInfo.InvariantCulture));
                Directory.CreateDirectory(_folder);
            }
            return Path.Combine(_folder, $"{Guid.NewGuid():N}{suffix}");
        }
    }

    private static void SweepStale()
    {
        IEnumerable<string> folders;
        try
        {
            folders = Directory.EnumerateDirectories(Path.GetTempPath(), Prefix + "*").ToList();
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return;
        }
        foreach (string folder in folders)
        {
            if (!int.TryParse(Path.GetFileName(folder)[Prefix.Length..], NumberStyles.None, CultureInfo.InvariantCulture, out int pid)
                || pid == Environment.ProcessId || IsRunning(pid))
                continue;
            try
            {
                Directory.Delete(folder, recursive: true);
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                // Another user's or still in use: leave it.
            }
        }
    }

    private static bool IsRunning(int pid)
    {
        if (OperatingSystem.IsLinux())
            return Directory.Exists($"/proc/{pid}");
        try
        {
            using var process = System.Diagnostics.Process.GetProcessById(pid);
            return !process.HasExited;
        }
        catch (Exception e) when (e is ArgumentException or InvalidOperationException)
        {
            return false;
        }
    }
}
