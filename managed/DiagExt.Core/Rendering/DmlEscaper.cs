using System.Text;

namespace DiagExt.Core.Rendering;

/// <summary>
/// Escapes strings for Debugger Markup Language. Everything a target supplies (type names, keys, module
/// names) goes through here, so it can neither open a tag (a &lt;link cmd=...&gt; that runs a command
/// when clicked) nor break a line.
/// </summary>
public static class DmlEscaper
{
    public static string Escape(string text)
    {
        var sb = new StringBuilder(text.Length + 16);
        foreach (char c in text)
        {
            switch (c)
            {
                case '&': sb.Append("&amp;"); break;
                case '<': sb.Append("&lt;"); break;
                case '>': sb.Append("&gt;"); break;
                case '"': sb.Append("&quot;"); break;
                case '\'': sb.Append("&#39;"); break;
                default:
                    if (TextSanitizer.IsUnsafe(c))
                        sb.Append($"\\u{(int)c:x4}");
                    else
                        sb.Append(c);
                    break;
            }
        }
        return sb.ToString();
    }
}
