using System.Text;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Targets;

/// <summary>
/// The version a runtime binary stamps into itself ("@(#)Version 8.0.3326.52219 @Commit: ..."), read from the
/// module's memory in the target. For a Linux core whose runtime folder has no version in its name (a
/// self-contained app) this is the only version there is: ClrMD reports 0.0 for ELF runtimes.
/// </summary>
internal static class RuntimeVersionStamp
{
    private static readonly byte[] Marker = "@(#)Version "u8.ToArray();

    /// <summary>The runtime module is a few MB; past this it is not one, and the scan stops.</summary>
    private const ulong MaxScan = 64UL * 1024 * 1024;

    private const int Block = 1024 * 1024;

    public static string? Read(IDataReader reader, ModuleInfo module)
    {
        ulong size = Math.Min((ulong)Math.Max(module.ImageSize, 0), MaxScan);
        if (module.ImageBase == 0 || size == 0)
            return null;
        byte[] buffer = new byte[Block + 64];
        // Blocks overlap by 64 bytes so a stamp across a boundary is still seen whole.
        for (ulong offset = 0; offset < size; offset += Block)
        {
            int want = (int)Math.Min((ulong)buffer.Length, size - offset);
            int read = reader.Read(module.ImageBase + offset, buffer.AsSpan(0, want));
            if (read <= 0)
                continue;
            int at = buffer.AsSpan(0, read).IndexOf(Marker);
            if (at < 0)
                continue;
            int start = at + Marker.Length, end = start;
            while (end < read && end - start < 32 && (char.IsAsciiDigit((char)buffer[end]) || buffer[end] == (byte)'.'))
                end++;
            return end > start ? Encoding.ASCII.GetString(buffer, start, end - start) : null;
        }
        return null;
    }
}
