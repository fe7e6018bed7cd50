using System.Text.RegularExpressions;
using DiagExt.Core.Errors;

namespace DiagExt.Core.Detectors.CtorOrder;

/// <summary>
/// Expands the paths a user gives to "ctororder --assembly": files, folders (every .dll/.exe/.nupkg below),
/// and globs with *, ? and ** ("bin/**/*.dll"). Bounded so a mistaken "/**" cannot run away.
/// </summary>
public static class AssemblyFiles
{
    public const int MaxFiles = 100_000;

    private static readonly string[] Extensions = [".dll", ".exe", ".nupkg"];

    public static IReadOnlyList<string> Expand(IEnumerable<string> patterns)
    {
        var files = new List<string>();
        var seen = new HashSet<string>(StringComparer.Ordinal);
        foreach (string pattern in patterns)
        {
            int before = files.Count;
            foreach (string file in ExpandOne(pattern))
            {
                if (seen.Add(Path.GetFullPath(file)))
                    files.Add(file);
                if (files.Count > MaxFiles)
                    throw new DiagExtException($"{pattern}: matches more than {MaxFiles:N0} files; name a smaller folder");
            }
            if (files.Count == before && !HasWildcard(pattern))
                throw new DiagExtException(File.Exists(pattern) || Directory.Exists(pattern) ? $"{pattern}: no .dll, .exe or .nupkg in it" : $"{pattern}: no such file or folder");
        }
        return files;
    }

    private static IEnumerable<string> ExpandOne(string pattern)
    {
        if (File.Exists(pattern))
            return [pattern];
        if (Directory.Exists(pattern))
            return Directory.EnumerateFiles(pattern, "*", SearchOption.AllDirectories).Where(IsCandidate).Order(StringComparer.Ordinal);
        if (!HasWildcard(pattern))
            return [];
        string normalized = pattern.Replace('\\', '/');
        int wildcard = normalized.IndexOfAny(['*', '?']);
        int slash = normalized.LastIndexOf('/', wildcard);
        string root = slash < 0 ? "." : slash == 0 ? "/" : normalized[..slash];
        if (!Directory.Exists(root))
            return [];
        Regex regex = ToRegex(slash < 0 ? normalized : normalized[(slash + 1)..]);
        bool recursive = normalized.Contains("**", StringComparison.Ordinal) || normalized[(wildcard)..].Contains('/');
        return Directory.EnumerateFiles(root, "*", recursive ? SearchOption.AllDirectories : SearchOption.TopDirectoryOnly)
            .Where(f => regex.IsMatch(Path.GetRelativePath(root, f).Replace('\\', '/')))
            .Order(StringComparer.Ordinal);
    }

    private static bool IsCandidate(string file) => Extensions.Contains(Path.GetExtension(file), StringComparer.OrdinalIgnoreCase);

    private static bool HasWildcard(string pattern) => pattern.IndexOfAny(['*', '?']) >= 0;

    /// <summary>"**/*.dll" to a regex over '/'-separated relative paths: ** spans folders, * and ? do not.</summary>
    private static Regex ToRegex(string glob)
    {
        var sb = new System.Text.StringBuilder("^");
        for (int i = 0; i < glob.Length; i++)
        {
            char c = glob[i];
            if (c == '*' && i + 1 < glob.Length && glob[i + 1] == '*')
            {
                bool slashAfter = i + 2 < glob.Length && glob[i + 2] == '/';
                sb.Append(slashAfter ? "(?:.*/)?" : ".*");
                i += slashAfter ? 2 : 1;
            }
            else if (c == '*')
                sb.Append("[^/]*");
            else if (c == '?')
                sb.Append("[^/]");
            else
                sb.Append(Regex.Escape(c.ToString()));
        }
        return new Regex(sb.Append('$').ToString(), RegexOptions.CultureInvariant, TimeSpan.FromSeconds(1));
    }
}
