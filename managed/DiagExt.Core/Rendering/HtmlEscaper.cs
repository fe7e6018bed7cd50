using System.Text;

namespace DiagExt.Core.Rendering;

/// <summary>
/// Escapes text for HTML element content and quoted attribute values. Every string a batch report takes
/// from a dump (file names, type names, keys) goes through here, so it can open no tag and run no script;
/// control and bidi characters become visible \u escapes as in the console.
/// </summary>
public static class HtmlEscaper
{
    public static string Escape(string? text)
    {
        if (string.IsNullOrEmpty(text))
            return "";
        var sb = new StringBuilder(text.Length + 16);
        foreach (char c in TextSanitizer.Sanitize(text))
        {
            switch (c)
            {
                case '&': sb.Append("&amp;"); break;
                case '<': sb.Append("&lt;"); break;
                case '>': sb.Append("&gt;"); break;
                case '"': sb.Append("&quot;"); break;
                case '\'': sb.Append("&#39;"); break;
                default: sb.Append(c); break;
            }
        }
        return sb.ToString();
    }
}
