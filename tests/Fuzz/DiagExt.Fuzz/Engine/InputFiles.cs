using System.IO.Compression;

namespace DiagExt.Fuzz.Engine;

/// <summary>
/// Reads corpus and seed folders. A regression input that is mostly zeros (a minimized dump keeps its offsets, so
/// unneeded bytes are zeroed, not cut) is stored gzipped (.gz) to stay small in the repository.
/// </summary>
public static class InputFiles
{
    public static IEnumerable<string> In(string directory) =>
        Directory.Exists(directory)
            ? Directory.EnumerateFiles(directory, "*", SearchOption.AllDirectories).Where(f => !f.EndsWith(".txt", StringComparison.Ordinal) && !f.EndsWith(".md", StringComparison.Ordinal)).Order(StringComparer.Ordinal)
            : [];

    public static byte[] Read(string path)
    {
        if (!path.EndsWith(".gz", StringComparison.Ordinal))
            return File.ReadAllBytes(path);
        using var gzip = new GZipStream(File.OpenRead(path), CompressionMode.Decompress);
        using var memory = new MemoryStream();
        gzip.CopyTo(memory);
        return memory.ToArray();
    }

    /// <summary>Writes an input, gzipped when that makes it much smaller.</summary>
    public static string Write(string stem, byte[] data)
    {
        using var compressed = new MemoryStream();
        using (var gzip = new GZipStream(compressed, CompressionLevel.SmallestSize, leaveOpen: true))
            gzip.Write(data);
        if (data.Length > 64 * 1024 && compressed.Length * 4 < data.Length)
        {
            File.WriteAllBytes(stem + ".bin.gz", compressed.ToArray());
            return stem + ".bin.gz";
        }
        File.WriteAllBytes(stem + ".bin", data);
        return stem + ".bin";
    }
}
