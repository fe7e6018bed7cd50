using System.Text;
using DiagExt.Fuzz.Engine;

namespace DiagExt.AflHarness;

/// <summary>The runner's tokens of a target (magic numbers, markup, extremes) in afl-fuzz's dictionary format.</summary>
public static class AflDictionary
{
    /// <summary>afl-fuzz skips longer tokens (MAX_DICT_FILE).</summary>
    private const int MaxTokenBytes = 128;

    public static string Write(IFuzzTarget target, string path)
    {
        var lines = target.Tokens.Where(t => t.Length is > 0 and <= MaxTokenBytes).Select(Line).Distinct().ToList();
        File.WriteAllLines(path, lines.Select((l, i) => $"token_{i}={l}"));
        return $"{target.Name}: {lines.Count} tokens in {path}";
    }

    private static string Line(byte[] token)
    {
        var line = new StringBuilder("\"");
        foreach (byte b in token)
            line.Append(b is >= 0x20 and < 0x7F and not (byte)'"' and not (byte)'\\' ? ((char)b).ToString() : $"\\x{b:X2}");
        return line.Append('"').ToString();
    }
}
