namespace DiagExt.Core.Rendering;

/// <summary>
/// Escapes text for HTML element content and quoted attribute values. Every string a batch report takes
/// from a dump (file names, type names, keys) goes through here, so it can open no tag and run no script.
/// HTML needs exactly what DML needs (the five markup characters, and control and bidi characters made
/// visible as \u escapes), so both share <see cref="DmlEscaper"/>.
/// </summary>
public static class HtmlEscaper
{
    public static string Escape(string? text) => string.IsNullOrEmpty(text) ? "" : DmlEscaper.Escape(text);
}
