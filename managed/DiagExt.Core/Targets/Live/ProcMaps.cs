using System.Globalization;

namespace DiagExt.Core.Targets.Live;

/// <summary>The mappings of a live Linux process (/proc/PID/maps): where the mapping holding a thread's stack pointer ends.</summary>
internal static class ProcMaps
{
    /// <summary>A process has a few thousand mappings; a file claiming more is not read further.</summary>
    private const int MaxLines = 1_000_000;

    /// <summary>The end (exclusive) of the mapping holding <paramref name="address"/>, or 0 (not mapped, or unreadable).</summary>
    public static ulong RegionEnd(int pid, ulong address)
    {
        try
        {
            foreach (string line in File.ReadLines($"/proc/{pid}/maps").Take(MaxLines))
            {
                int dash = line.IndexOf('-');
                int space = line.IndexOf(' ');
                if (dash <= 0 || space <= dash
                    || !ulong.TryParse(line.AsSpan(0, dash), NumberStyles.HexNumber, CultureInfo.InvariantCulture, out ulong start)
                    || !ulong.TryParse(line.AsSpan(dash + 1, space - dash - 1), NumberStyles.HexNumber, CultureInfo.InvariantCulture, out ulong end))
                    continue;
                if (address >= start && address < end)
                    return end;
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // The process is gone or not ours to read: the stack's base stays unknown.
        }
        return 0;
    }
}
