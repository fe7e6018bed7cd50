using System.CommandLine.Parsing;

namespace DiagExt.Cli.CommandLine;

/// <summary>
/// "diagext analyze @args.rsp": arguments read from a file, in System.CommandLine's format (words split and
/// quoted as on a command line, several per line, a line starting with '#' is a comment, "@other.rsp" inside
/// is read in its place). It plugs into System.CommandLine's own @file hook but is bounded: System.CommandLine
/// 3.0.0's reader follows "@other.rsp" without limit, and a file naming itself kept it busy until killed.
/// </summary>
public static class ResponseFiles
{
    private const int MaxDepth = 8;
    private const long MaxFileBytes = 1024 * 1024;
    private const int MaxArguments = 100_000;

    /// <summary>The hook for <see cref="System.CommandLine.ParserConfiguration.ResponseFileTokenReplacer"/>; <paramref name="normalize"/> sees the arguments read, as the command line's own.</summary>
    public static TryReplaceToken Reader(Func<IReadOnlyList<string>, IReadOnlyList<string>> normalize) =>
        (string path, out IReadOnlyList<string>? arguments, out string? error) =>
        {
            try
            {
                var read = new List<string>();
                Expand(path, 1, read);
                arguments = normalize(read);
                error = null;
                return true;
            }
            catch (UsageException e)
            {
                arguments = null;
                error = e.Message;
                return false;
            }
        };

    private static void Expand(string path, int depth, List<string> into)
    {
        if (depth > MaxDepth)
            throw new UsageException($"response file '{path}': @files nest more than {MaxDepth} deep (does one name itself?)");
        foreach (string line in Lines(path))
        {
            string trimmed = line.Trim();
            if (trimmed.Length == 0 || trimmed[0] == '#')
                continue;
            foreach (string word in CommandLineParser.SplitCommandLine(trimmed))
            {
                if (word.Length > 1 && word[0] == '@')
                    Expand(word[1..], depth + 1, into);
                else
                    into.Add(word);
                if (into.Count > MaxArguments)
                    throw new UsageException($"response file '{path}': more than {MaxArguments} arguments");
            }
        }
    }

    private static string[] Lines(string path)
    {
        try
        {
            if (Directory.Exists(path))
                throw new UsageException($"response file '{path}' is a directory");
            var file = new FileInfo(path);
            if (!file.Exists)
                throw new UsageException($"response file '{path}' not found");
            if (file.Length > MaxFileBytes)
                throw new UsageException($"response file '{path}' is larger than {MaxFileBytes / 1024 / 1024} MB");
            return File.ReadAllLines(path);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException)
        {
            throw new UsageException($"cannot read response file '{path}': {e.Message}");
        }
    }
}
