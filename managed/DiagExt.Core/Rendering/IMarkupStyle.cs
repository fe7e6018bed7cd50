using DiagExt.Core.Reports;

namespace DiagExt.Core.Rendering;

/// <summary>How a console renderer writes text and typed pieces: plain text for terminals, DML for WinDbg.</summary>
public interface IMarkupStyle
{
    /// <summary>Writes text that may come from the target, escaped for this style.</summary>
    string Text(string text);

    /// <summary>Writes a typed piece (address, thread id), as a link where the style has links.</summary>
    string Piece(MarkupPiece piece);

    /// <summary>Emphasis for titles (bold in DML).</summary>
    string Strong(string escapedText);
}

/// <summary>Plain text for terminals and logs.</summary>
public sealed class PlainStyle : IMarkupStyle
{
    public string Text(string text) => TextSanitizer.Sanitize(text);

    public string Piece(MarkupPiece piece) => piece is MarkupPiece.Text t ? Text(t.Value) : piece.Plain;

    public string Strong(string escapedText) => escapedText;
}

/// <summary>
/// DML for the debugger: addresses link to SOS's !DumpObj, thread ids switch to the thread and show its stack:
/// the managed one (!clrstack) in a .NET process, the native one (k) in a process without .NET, where SOS has
/// nothing to show.
/// </summary>
public sealed class DmlStyle(bool managedTarget = true) : IMarkupStyle
{
    private readonly string _stackCommand = managedTarget ? "!clrstack" : "k";

    public string Text(string text) => DmlEscaper.Escape(text);

    // Link commands are built from numbers only: nothing from the target ever reaches a cmd attribute.
    public string Piece(MarkupPiece piece) => piece switch
    {
        MarkupPiece.Text t => Text(t.Value),
        MarkupPiece.ObjectAddress o => $"<link cmd=\"!DumpObj /d {(Address)o.Address}\">{(Address)o.Address}</link>",
        MarkupPiece.Thread th => $"<link cmd=\"~~[0x{th.OsThreadId:x}]s; {_stackCommand}\">0x{th.OsThreadId:x}</link>",
        // Data, not code: "u" would disassemble a critical section; without PDBs there is no type for "dt", so the words.
        MarkupPiece.NativeAddress n => $"<link cmd=\"dq {(Address)n.Address} L8\">{(Address)n.Address}</link>",
        _ => Text(piece.Plain),
    };

    public string Strong(string escapedText) => $"<b>{escapedText}</b>";
}
