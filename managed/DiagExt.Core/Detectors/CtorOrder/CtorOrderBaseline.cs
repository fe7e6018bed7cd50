using System.Text;
using System.Text.RegularExpressions;
using DiagExt.Core.Errors;

namespace DiagExt.Core.Detectors.CtorOrder;

/// <summary>
/// A baseline file: the call sites a team has reviewed, one per line as "assembly TAB method TAB pattern". No IL
/// offset, token or path, so a rebuild (or another target framework) keeps matching; the numbers the compiler puts
/// in lambda and display-class names ("b__3_0", "DisplayClass12_0") are dropped too, since unrelated edits shift them.
/// A site whose code changes (another pick, another signature) no longer matches and is reported again.
/// </summary>
public static partial class CtorOrderBaseline
{
    public const string Header = "# diagext ctororder baseline: assembly<TAB>method<TAB>pattern; lines starting with # are comments";

    private const long MaxBytes = 16 << 20;

    public static string Key(CallSite site) => $"{site.Assembly}\t{CompilerNumbers().Replace(site.Method, "")}\t{site.Pattern}";

    /// <summary>The keys in <paramref name="path"/>; a missing, oversized or malformed file is a <see cref="DiagExtException"/> (exit 2).</summary>
    public static HashSet<string> Read(string path)
    {
        var info = new FileInfo(path);
        if (!info.Exists)
            throw new DiagExtException($"{path}: baseline file not found", Remedy.WriteBaseline);
        if (info.Length > MaxBytes)
            throw new DiagExtException($"{path}: {info.Length:N0} bytes is not a baseline file (limit {MaxBytes:N0})");
        var keys = new HashSet<string>(StringComparer.Ordinal);
        int number = 0;
        foreach (string line in File.ReadLines(path))
        {
            number++;
            if (line.Length == 0 || line[0] == '#')
                continue;
            if (line.Split('\t').Length != 3)
                throw new DiagExtException($"{path}:{number}: not a baseline line (expected assembly, method and pattern separated by tabs)");
            keys.Add(line);
        }
        return keys;
    }

    /// <summary>Writes the keys of <paramref name="sites"/>, sorted, one per line; returns how many.</summary>
    public static int Write(string path, IEnumerable<CallSite> sites)
    {
        var text = new StringBuilder(Header).Append('\n');
        string[] keys = sites.Select(Key).Distinct(StringComparer.Ordinal).Order(StringComparer.Ordinal).ToArray();
        foreach (string key in keys)
            text.Append(key).Append('\n');
        try
        {
            File.WriteAllText(path, text.ToString());
            return keys.Length;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw new DiagExtException($"{path}: cannot write the baseline: {e.Message}");
        }
    }

    /// <summary>"b__3_0" -> "b__", "DisplayClass12_0" -> "DisplayClass", "g__Local|3_0" -> "g__Local|", "d__7" -> "d__".</summary>
    [GeneratedRegex(@"(?<=(?:__|DisplayClass|\|))\d+(?:_\d+)?")]
    private static partial Regex CompilerNumbers();
}
