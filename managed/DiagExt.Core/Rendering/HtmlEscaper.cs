namespace DiagExt.Core.Rendering;

/// <summary>
/// Escapes text for HTML element content and quoted attribute values. Every string a batch report takes
/// from a dump (file names, type names, keys) goes through here, so it can open no tag and run no script.
/// HTML needs what DML needs (the markup characters, and control and bidi characters made visible as \u
/// escapes), so it starts from <see cref="DmlEscaper"/>, plus the apostrophe, which DML must leave alone
/// (dbgeng decodes no &amp;#39;) but a single-quoted HTML attribute must not see.
/// </summary>
public static class HtmlEscaper
{
    public static string Escape(string? text) => string.IsNullOrEmpty(text) ? "" : DmlEscaper.Escape(text).Replace("'", "&#39;", StringComparison.Ordinal);
}
