using System.Text;

namespace DiagExt.Core.Rendering;

/// <summary>
/// Makes a string from the target safe for a terminal: control characters (escape sequences, carriage
/// returns that overwrite a line, bidi overrides) become visible \u escapes.
/// </summary>
public static class TextSanitizer
{
    public static string Sanitize(string text)
    {
        if (!NeedsWork(text))
            return text;
        var sb = new StringBuilder(text.Length + 16);
        foreach (char c in text)
        {
            if (IsUnsafe(c))
                sb.Append($"\\u{(int)c:x4}");
            else
                sb.Append(c);
        }
        return sb.ToString();
    }

    internal static bool IsUnsafe(char c) =>
        char.IsControl(c) || c is '\u2028' or '\u2029' || (c >= '\u202A' && c <= '\u202E') || (c >= '\u2066' && c <= '\u2069');

    private static bool NeedsWork(string text)
    {
        foreach (char c in text)
            if (IsUnsafe(c))
                return true;
        return false;
    }
}
