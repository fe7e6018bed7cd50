using System.Text;

namespace DiagExt.Core.Rendering;

/// <summary>
/// Escapes text for Markdown (CommonMark/GFM) inline content and table cells, so a string from a dump can
/// open no emphasis, link, image, HTML tag, code span, strikethrough or table cell, and cannot start a
/// block (list, heading, quote) where it begins a line or list item. "://" and "www." are broken up so
/// a dump cannot plant a clickable link. Line breaks and control characters become visible \u escapes.
/// Characters that are harmless mid-line ('.', '-', '(') are left alone so the file stays readable, and so is the
/// '.' of a leading number that cannot open a list (CommonMark needs a space or the line's end after "1."):
/// versions and times ("0.1.0", "3.8s") read as written.
/// </summary>
public static class MarkdownEscaper
{
    private const string AlwaysEscaped = "\\`*_[]|~";

    public static string Escape(string? text)
    {
        if (string.IsNullOrEmpty(text))
            return "";
        string clean = TextSanitizer.Sanitize(text);
        var sb = new StringBuilder(clean.Length + 16);
        int leadingDigits = 0;
        while (leadingDigits < clean.Length && char.IsAsciiDigit(clean[leadingDigits]))
            leadingDigits++;
        for (int i = 0; i < clean.Length; i++)
        {
            char c = clean[i];
            if (c == '<')
                sb.Append("&lt;");
            else if (c == '>')
                sb.Append("&gt;");
            else if (c == '&')
                sb.Append("&amp;");
            else if (AlwaysEscaped.Contains(c)
                || (i == 0 && c is '-' or '+' or '#' or '=')
                || (i == leadingDigits && i > 0 && c is '.' or ')' && (i + 1 == clean.Length || clean[i + 1] is ' ' or '\t'))
                || (c == ':' && clean.AsSpan(i + 1).StartsWith("//"))
                || (c == '.' && i >= 3 && clean.AsSpan(i - 3, 3).Equals("www", StringComparison.OrdinalIgnoreCase)))
                sb.Append('\\').Append(c);
            else
                sb.Append(c);
        }
        return sb.ToString();
    }
}
