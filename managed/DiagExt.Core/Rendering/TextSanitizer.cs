using System.Globalization;
using System.Text;

namespace DiagExt.Core.Rendering;

/// <summary>
/// Makes a string from the target safe to show: characters that are invisible or change how the
/// rest of the line looks (control characters, escape sequences, carriage returns that overwrite a
/// line, bidi overrides and marks, zero-width and other format characters, line separators, lone
/// surrogates) become visible \u escapes, so a crafted type name cannot disguise itself or the output.
/// </summary>
public static class TextSanitizer
{
    public static string Sanitize(string text) => Escape(text, markup: null);

    /// <summary>Sanitizes, and also replaces the characters <paramref name="markup"/> maps (e.g. DML's &lt; &amp;).</summary>
    internal static string Escape(string text, Func<char, string?>? markup)
    {
        StringBuilder? sb = null;
        for (int i = 0; i < text.Length; i++)
        {
            char c = text[i];
            int width = char.IsHighSurrogate(c) && i + 1 < text.Length && char.IsLowSurrogate(text[i + 1]) ? 2 : 1;
            string? replacement = markup?.Invoke(c) ?? (IsUnsafe(text, i, width) ? Visible(text, i, width) : null);
            if (replacement is null && sb is null)
            {
                i += width - 1;
                continue;
            }
            sb ??= new StringBuilder(text.Length + 16).Append(text, 0, i);
            if (replacement is null)
                sb.Append(text, i, width);
            else
                sb.Append(replacement);
            i += width - 1;
        }
        return sb?.ToString() ?? text;
    }

    private static bool IsUnsafe(string text, int index, int width)
    {
        if (width == 1 && char.IsSurrogate(text[index]))
            return true; // a lone surrogate: not text, and not encodable as UTF-8
        UnicodeCategory category = CharUnicodeInfo.GetUnicodeCategory(text, index);
        return category is UnicodeCategory.Control or UnicodeCategory.Format or UnicodeCategory.LineSeparator
            or UnicodeCategory.ParagraphSeparator;
    }

    private static string Visible(string text, int index, int width) =>
        width == 2
            ? $"\\U{char.ConvertToUtf32(text[index], text[index + 1]):x8}"
            : $"\\u{(int)text[index]:x4}";
}
