using DiagExt.Core;
using DiagExt.Core.Errors;
using DiagExt.Core.Reports;
using DiagExt.Core.Targets;
using DiagExt.Core.Targets.Sources;

namespace DiagExt.Cli.Batch;

/// <summary>
/// Turns the files, folders and globs of a batch into dumps, by content, not by name: Windows minidumps,
/// ELF cores, and the dumps inside .gz and .zip files. A file named on the command line (or by a glob)
/// that is not a dump is a failed input; one met while walking a folder is skipped and listed, unless its
/// name says it should be a dump (x.dmp, core.123), which makes it a failed input too.
/// </summary>
public sealed class DumpDiscovery(Limits limits)
{
    private static readonly string[] DumpExtensions = [".dmp", ".mdmp", ".hdmp", ".core"];
    private readonly HashSet<string> _seenPaths = new(StringComparer.Ordinal);
    private int _files;

    public List<DumpCandidate> Dumps { get; } = [];

    public List<SkippedFile> Skipped { get; } = [];

    public void Add(string input, CancellationToken cancellation)
    {
        if (Directory.Exists(input))
        {
            WalkFolder(input, cancellation);
        }
        else if (File.Exists(input))
        {
            AddFile(input, named: true);
        }
        else if (GlobPattern.HasWildcards(input))
        {
            IReadOnlyList<string> matches = GlobPattern.Expand(input, limits.MaxBatchFiles);
            if (matches.Count == 0)
                Fail(input, "no file matches this pattern");
            foreach (string path in matches)
                AddFile(path, named: true);
        }
        else
        {
            Fail(input, "no such file or folder");
        }
    }

    private void WalkFolder(string folder, CancellationToken cancellation)
    {
        var options = new EnumerationOptions
        {
            RecurseSubdirectories = true,
            IgnoreInaccessible = true,
            MaxRecursionDepth = 32,
            AttributesToSkip = FileAttributes.Hidden | FileAttributes.System | FileAttributes.ReparsePoint,
        };
        List<string> files;
        try
        {
            files = Directory.EnumerateFiles(folder, "*", options).Take(limits.MaxBatchFiles + 1).ToList();
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            Fail(folder, $"cannot list the folder: {e.Message}");
            return;
        }
        files.Sort(StringComparer.Ordinal);
        foreach (string path in files)
        {
            cancellation.ThrowIfCancellationRequested();
            AddFile(path, named: false);
        }
    }

    private void AddFile(string path, bool named)
    {
        if (!_seenPaths.Add(Path.GetFullPath(path)))
            return; // named twice, or both named and inside a named folder
        if (++_files > limits.MaxBatchFiles)
        {
            if (_files == limits.MaxBatchFiles + 1)
                Skipped.Add(new SkippedFile(path, $"and every later file: a batch looks at {limits.MaxBatchFiles:N0} files at most"));
            return;
        }
        try
        {
            DumpFormat format = DumpFormatProbe.Identify(path);
            switch (format)
            {
                case DumpFormat.Gzip:
                    AddGzip(path, named);
                    break;
                case DumpFormat.Zip:
                    AddZip(path, named);
                    break;
                default:
                    if (DumpFormatProbe.IsDump(format))
                        Dumps.Add(new DumpCandidate(new DumpSource(path), new FileInfo(path).Length));
                    else
                        NotADump(path, named, DumpFormatProbe.Problem(format)!);
                    break;
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            Fail(path, $"cannot open: {e.Message}");
        }
        catch (DiagExtException e)
        {
            Fail(path, StripName(e.Message, path));
        }
    }

    private void AddGzip(string path, bool named)
    {
        DumpFormat inner = DumpArchives.SniffGzip(path);
        var source = new DumpSource(path, DumpContainer.Gzip);
        if (DumpFormatProbe.IsDump(inner))
            Dumps.Add(new DumpCandidate(source, DumpArchives.UnpackedLength(source)));
        else
            NotADump(path, named, "compressed, but what it holds is not a dump");
    }

    private void AddZip(string path, bool named)
    {
        int found = 0;
        foreach (ArchiveMember member in DumpArchives.ListZip(path, limits))
        {
            var source = new DumpSource(path, DumpContainer.Zip, member.Name);
            if (DumpFormatProbe.IsDump(member.Format))
            {
                Dumps.Add(new DumpCandidate(source, member.Length));
                found++;
            }
            else
            {
                NotADump(source.DisplayName, named: false, DumpFormatProbe.Problem(member.Format) ?? "an archive inside an archive");
            }
        }
        if (found == 0)
            NotADump(path, named, "a zip archive holding no dump");
    }

    private void NotADump(string name, bool named, string reason)
    {
        if (named || LooksLikeDump(name))
            Fail(name, reason);
        else
            Skipped.Add(new SkippedFile(name, reason));
    }

    private void Fail(string name, string reason) =>
        Dumps.Add(new DumpCandidate(new DumpSource(name), null, reason));

    /// <summary>Names procdump, Windows Error Reporting and Linux core_pattern give dumps.</summary>
    internal static bool LooksLikeDump(string name)
    {
        string file = Path.GetFileName(name).ToLowerInvariant();
        if (file.EndsWith(".gz", StringComparison.Ordinal))
            file = file[..^3];
        return DumpExtensions.Any(e => file.EndsWith(e, StringComparison.Ordinal)) || file == "core" || file.StartsWith("core.", StringComparison.Ordinal);
    }

    private static string StripName(string message, string name) =>
        message.StartsWith(name + ": ", StringComparison.Ordinal) ? message[(name.Length + 2)..] : message;
}
