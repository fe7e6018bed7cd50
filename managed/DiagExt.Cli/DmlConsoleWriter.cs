using System.Text;
using DiagExt.Core.Rendering;

namespace DiagExt.Cli;

/// <summary>
/// stdout when it is a DML console (<c>--dml-console</c>, which the WinDbg extension always passes): whatever is
/// written as text (a --json or --format text report, help, messages) is escaped line by line, so every line the
/// extension relays is valid DML and shows as written. Output rendered as DML goes to <see cref="Markup"/> instead.
/// </summary>
internal sealed class DmlConsoleWriter(TextWriter markup) : TextWriter
{
    public const string Option = "--dml-console";

    private readonly StringBuilder _line = new();

    /// <summary>The console itself, for output that is already DML.</summary>
    public TextWriter Markup { get; } = markup;

    public override Encoding Encoding => Markup.Encoding;

    public override void Write(char value)
    {
        if (value == '\n')
            EndLine("\n");
        else
            _line.Append(value);
    }

    public override void Write(string? value)
    {
        foreach (char c in value ?? "")
            Write(c);
    }

    public override void Flush()
    {
        EndLine("");
        Markup.Flush();
    }

    protected override void Dispose(bool disposing)
    {
        if (disposing)
            Flush();
        base.Dispose(disposing);
    }

    private void EndLine(string end)
    {
        if (_line.Length == 0 && end.Length == 0)
            return;
        Markup.Write(DmlEscaper.Escape(_line.ToString().TrimEnd('\r')) + end);
        _line.Clear();
    }
}
