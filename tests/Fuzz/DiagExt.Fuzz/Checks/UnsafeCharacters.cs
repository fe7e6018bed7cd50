namespace DiagExt.Fuzz.Checks;

/// <summary>
/// Characters that must never reach a terminal or the debugger raw from a target: C0/C1 controls (escape sequences,
/// carriage returns that overwrite a line), Unicode's Bidi_Control characters (which reorder what is shown: the
/// "Trojan Source" attack) and the line and paragraph separators.
/// </summary>
public static class UnsafeCharacters
{
    public static bool IsBidiControl(char c) =>
        c is '\u061C' or '\u200E' or '\u200F' || (c >= '\u202A' && c <= '\u202E') || (c >= '\u2066' && c <= '\u2069');

    /// <summary>Unsafe in rendered output, where DiagExt itself only ever writes '\n' as a control character.</summary>
    public static bool IsUnsafeInOutput(char c) => (char.IsControl(c) && c != '\n') || IsBidiControl(c) || c is '\u2028' or '\u2029';

    /// <summary>The first unsafe character of <paramref name="text"/> and where, or null.</summary>
    public static (int Index, char Char)? FirstUnsafe(string text)
    {
        for (int i = 0; i < text.Length; i++)
            if (IsUnsafeInOutput(text[i]))
                return (i, text[i]);
        return null;
    }

    public static string Around(string text, int index)
    {
        int from = Math.Max(0, index - 40), to = Math.Min(text.Length, index + 40);
        return string.Concat(text[from..to].Select(c => c < 0x20 || c > 0x7E ? $"\\u{(int)c:x4}" : c.ToString()));
    }
}
