using System.IO.Compression;
using DiagExt.Core.Il;

namespace DiagExt.Core.Detectors.CtorOrder;

/// <summary>
/// Opens what a path holds: one assembly, or every assembly inside a NuGet package (.nupkg is a zip).
/// Native DLLs are not errors, just not scanned; a damaged managed image is one problem line.
/// </summary>
public static class AssemblySources
{
    /// <summary>Largest assembly read out of a package.</summary>
    public const long MaxEntryBytes = 512L * 1024 * 1024;

    public const int MaxEntries = 20_000;

    /// <param name="NotManaged">Files (or package entries) that are not managed assemblies: native DLLs, other data.</param>
    public sealed record Opened(IReadOnlyList<AssemblyImage> Images, IReadOnlyList<string> NotManaged, IReadOnlyList<string> Problems);

    public static Opened Open(string path)
    {
        if (string.Equals(Path.GetExtension(path), ".nupkg", StringComparison.OrdinalIgnoreCase))
            return OpenPackage(path);
        try
        {
            return new([AssemblyImage.Open(path)], [], []);
        }
        catch (BadImageFormatException)
        {
            return new([], [path], []);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return new([], [], [$"{path}: cannot read: {e.Message}"]);
        }
    }

    private static Opened OpenPackage(string path)
    {
        var images = new List<AssemblyImage>();
        var notManaged = new List<string>();
        var problems = new List<string>();
        try
        {
            using ZipArchive zip = ZipFile.OpenRead(path);
            foreach (ZipArchiveEntry entry in zip.Entries.Take(MaxEntries))
            {
                string ext = Path.GetExtension(entry.FullName);
                if (!ext.Equals(".dll", StringComparison.OrdinalIgnoreCase) && !ext.Equals(".exe", StringComparison.OrdinalIgnoreCase))
                    continue;
                if (entry.Length > MaxEntryBytes)
                {
                    problems.Add($"{path}!{entry.FullName}: {entry.Length:N0} bytes, over the {MaxEntryBytes:N0} byte limit");
                    continue;
                }
                byte[] bytes = new byte[entry.Length];
                using (Stream stream = entry.Open())
                    stream.ReadExactly(bytes);
                try
                {
                    images.Add(AssemblyImage.FromMemory(bytes, $"{path}!{entry.FullName}", loadedLayout: false, pathOnDisk: null));
                }
                catch (BadImageFormatException)
                {
                    notManaged.Add($"{path}!{entry.FullName}");
                }
            }
        }
        catch (Exception e) when (e is InvalidDataException or IOException or UnauthorizedAccessException or EndOfStreamException)
        {
            problems.Add($"{path}: not a readable package: {e.Message.ReplaceLineEndings(" ")}");
        }
        return new(images, notManaged, problems);
    }
}
