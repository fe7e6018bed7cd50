using System.Runtime.InteropServices;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Targets.Symbols;

/// <summary>What the symbol path gave for a DAC: its file, or why not (Key is null when the dump does not say which build it needs).</summary>
public sealed record DacSearch(string? File, string? Key, string? Failure);

/// <summary>
/// Finds a runtime's DAC through the symbol path: first every folder (caches and local stores, no network),
/// then, only when the path holds a server, a download into that server's cache.
/// </summary>
public static class DacLocator
{
    public static DacSearch Find(ClrInfo clr, OSPlatform platform, SymbolPath path, TimeSpan stall, CancellationToken cancellation)
    {
        string? key = clr.DebuggingLibraries
            .Where(l => l.Kind == DebugLibraryKind.Dac && l.Platform == platform && l.TargetArchitecture == RuntimeInformation.ProcessArchitecture)
            .Select(SymbolKey.ForDac)
            .FirstOrDefault(k => k is not null);
        if (key is null)
            return new DacSearch(null, null, "the dump does not record the runtime's build id or timestamp, so no symbol store can be asked for its DAC");

        foreach (string folder in path.Stores.Select(s => s.Folder).OfType<string>().Distinct())
        {
            string candidate = Path.Combine(folder, key.Replace('/', Path.DirectorySeparatorChar));
            if (File.Exists(candidate) && LooksLike(platform, Head(candidate)))
                return new DacSearch(candidate, key, null);
        }

        var failures = new List<string>();
        var downloader = new SymbolDownloader(stall);
        foreach (SymbolStore store in path.Stores.Where(s => s.IsRemote))
        {
            SymbolDownload download = downloader.Fetch(store.Server!, key, store.Folder!, head => LooksLike(platform, head), Expected(platform), cancellation);
            if (download.File is not null)
                return new DacSearch(download.File, key, null);
            failures.Add(download.Failure!);
        }
        return new DacSearch(null, key, failures.Count == 0 ? null : string.Join("; ", failures));
    }

    /// <summary>The file format a DAC for this platform has, checked before a file is kept or loaded.</summary>
    private static bool LooksLike(OSPlatform platform, ReadOnlySpan<byte> head)
    {
        if (platform == OSPlatform.Windows)
            return head.Length >= 2 && head[0] == (byte)'M' && head[1] == (byte)'Z';
        if (platform == OSPlatform.OSX)
            return head.Length >= 4 && (BitConverter.ToUInt32(head) is 0xFEEDFACF or 0xCFFAEDFE);
        // ELF, 64-bit (class 2), little endian (data 1), a shared object (e_type 3).
        return head.Length >= 18 && head[0] == 0x7F && head[1] == (byte)'E' && head[2] == (byte)'L' && head[3] == (byte)'F'
            && head[4] == 2 && head[5] == 1 && head[16] == 3 && head[17] == 0;
    }

    private static string Expected(OSPlatform platform) =>
        platform == OSPlatform.Windows ? "a PE image" : platform == OSPlatform.OSX ? "a Mach-O image" : "a 64-bit ELF shared object";

    private static byte[] Head(string file)
    {
        using FileStream stream = File.OpenRead(file);
        byte[] head = new byte[64];
        int read = stream.ReadAtLeast(head, head.Length, throwOnEndOfStream: false);
        return head[..read];
    }
}
