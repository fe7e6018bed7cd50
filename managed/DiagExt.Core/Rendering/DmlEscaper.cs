namespace DiagExt.Core.Rendering;

/// <summary>
/// Escapes strings for Debugger Markup Language. Everything a target supplies (type names, field and
/// method names) goes through here, so it can neither open a tag (a &lt;link cmd=...&gt; that runs a
/// command when clicked) nor break a line. Only the four entities dbgeng decodes are used: checked
/// against Microsoft's dbgeng 10.0.29507, an unknown entity such as &amp;#39; or &amp;apos;, or a bare
/// &amp;, ends the text of the whole output call, so an apostrophe is left as it is.
/// </summary>
public static class DmlEscaper
{
    public static string Escape(string text) => TextSanitizer.Escape(text, Entity);

    private static string? Entity(char c) => c switch
    {
        '&' => "&amp;",
        '<' => "&lt;",
        '>' => "&gt;",
        '"' => "&quot;",
        _ => null,
    };
}
