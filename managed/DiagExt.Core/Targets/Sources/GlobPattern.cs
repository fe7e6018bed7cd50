using System.Text;
using System.Text.RegularExpressions;

namespace DiagExt.Core.Targets.Sources;

/// <summary>
/// Expands a quoted glob the shell did not ("dumps/*.dmp", "crashes/**/core.*", "bin/**/*.dll"):
/// "*" and "?" within one folder name, "**" across folders, "[...]" a character class. As in a shell,
/// wildcards do not match names starting with '.'. Used for batch inputs and ctororder's --assembly.
/// </summary>
public static class GlobPattern
{
    public static bool HasWildcards(string text) => text.IndexOfAny(['*', '?', '[']) >= 0;

    public static IReadOnlyList<string> Expand(string pattern, int maxMatches)
    {
        string normalized = pattern.Replace('\\', '/');
        string[] segments = normalized.Split('/');
        int firstWild = Array.FindIndex(segments, HasWildcards);
        if (firstWild < 0)
            return File.Exists(pattern) ? [pattern] : [];
        string root = firstWild == 0 ? "" : string.Join('/', segments[..firstWild]);
        if (root.Length == 0 && normalized.StartsWith('/'))
            root = "/";
        var matches = new List<string>();
        Walk(root, segments[firstWild..], matches, maxMatches);
        matches.Sort(StringComparer.Ordinal);
        return matches;
    }

    private static void Walk(string folder, string[] rest, List<string> matches, int max)
    {
        if (matches.Count >= max || rest.Length == 0)
            return;
        string directory = folder.Length == 0 ? "." : folder;
        if (!Directory.Exists(directory))
            return;
        string segment = rest[0];
        if (segment == "**")
        {
            Walk(folder, rest[1..], matches, max); // "**" may match no folder at all
            foreach (string sub in Entries(directory, files: false, "*"))
                Walk(Join(folder, sub), rest, matches, max);
            return;
        }
        bool last = rest.Length == 1;
        foreach (string name in Entries(directory, files: last, segment))
        {
            if (matches.Count >= max)
                return;
            if (last)
                matches.Add(Join(folder, name));
            else
                Walk(Join(folder, name), rest[1..], matches, max);
        }
    }

    private static IEnumerable<string> Entries(string directory, bool files, string segment)
    {
        Regex match = ToRegex(segment);
        IEnumerable<string> paths;
        try
        {
            paths = files ? Directory.EnumerateFiles(directory) : Directory.EnumerateDirectories(directory);
            paths = paths.ToList();
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            yield break;
        }
        foreach (string path in paths)
        {
            string name = Path.GetFileName(path);
            if (name.StartsWith('.') && !segment.StartsWith('.'))
                continue;
            if (match.IsMatch(name))
                yield return name;
        }
    }

    private static string Join(string folder, string name) => folder.Length == 0 ? name : folder.EndsWith('/') ? folder + name : $"{folder}/{name}";

    internal static Regex ToRegex(string segment)
    {
        var sb = new StringBuilder("^");
        for (int i = 0; i < segment.Length; i++)
        {
            char c = segment[i];
            int close = c == '[' ? segment.IndexOf(']', i + 2) : -1;
            if (c == '*')
                sb.Append(".*");
            else if (c == '?')
                sb.Append('.');
            else if (close > i)
            {
                string body = segment[(i + 1)..close];
                bool negate = body.StartsWith('!') || body.StartsWith('^');
                sb.Append(negate ? "[^" : "[").Append(Regex.Escape(negate ? body[1..] : body).Replace("\\-", "-", StringComparison.Ordinal)).Append(']');
                i = close;
            }
            else
                sb.Append(Regex.Escape(c.ToString()));
        }
        return new Regex(sb.Append('$').ToString(), RegexOptions.CultureInvariant);
    }
}
