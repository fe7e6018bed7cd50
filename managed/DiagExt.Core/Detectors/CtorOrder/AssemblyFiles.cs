using DiagExt.Core.Errors;
using DiagExt.Core.Targets.Sources;

namespace DiagExt.Core.Detectors.CtorOrder;

/// <summary>
/// Expands the paths a user gives to "ctororder --assembly": files, folders (every .dll/.exe/.nupkg below),
/// and globs with *, ? and ** ("bin/**/*.dll", see <see cref="GlobPattern"/>). Bounded so a mistaken "/**" cannot run away.
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
        return HasWildcard(pattern) ? GlobPattern.Expand(pattern, MaxFiles + 1) : [];
    }

    private static bool IsCandidate(string file) => Extensions.Contains(Path.GetExtension(file), StringComparer.OrdinalIgnoreCase);

    private static bool HasWildcard(string pattern) => GlobPattern.HasWildcards(pattern);
}
