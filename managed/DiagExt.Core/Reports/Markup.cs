using System.Text;

namespace DiagExt.Core.Reports;

/// <summary>
/// One line of evidence as typed pieces, so each renderer can decide what becomes a link (DML) and what
/// is escaped. Text pieces may come from the target (type names, keys): renderers must escape them.
/// </summary>
public sealed record Markup(IReadOnlyList<MarkupPiece> Pieces)
{
    public static MarkupBuilder Line() => new();

    public static Markup Text(string text) => new([new MarkupPiece.Text(text)]);

    public string ToPlainText()
    {
        var sb = new StringBuilder();
        foreach (MarkupPiece piece in Pieces)
            sb.Append(piece.Plain);
        return sb.ToString();
    }

    public override string ToString() => ToPlainText();
}

/// <summary>The kinds of piece a line of evidence is made of.</summary>
public abstract record MarkupPiece
{
    public abstract string Plain { get; }

    /// <summary>Plain text. May hold strings from the target.</summary>
    public sealed record Text(string Value) : MarkupPiece
    {
        public override string Plain => Value;
    }

    /// <summary>A managed object address (DML: link to !DumpObj).</summary>
    public sealed record ObjectAddress(ulong Address) : MarkupPiece
    {
        public override string Plain => $"{(Address)Address}";
    }

    /// <summary>An OS thread id (DML: link that switches to it and shows its managed stack).</summary>
    public sealed record Thread(uint OsThreadId) : MarkupPiece
    {
        public override string Plain => $"0x{OsThreadId:x}";
    }

    /// <summary>A native data address, e.g. a critical section or the PEB (DML: a link that displays its memory).</summary>
    public sealed record NativeAddress(ulong Address) : MarkupPiece
    {
        public override string Plain => $"{(Address)Address}";
    }
}

/// <summary>Fluent builder: <c>Markup.Line().Text("entries ").Object(addr).Build()</c>.</summary>
public sealed class MarkupBuilder
{
    private readonly List<MarkupPiece> _pieces = [];

    public MarkupBuilder Text(string text)
    {
        _pieces.Add(new MarkupPiece.Text(text));
        return this;
    }

    public MarkupBuilder Object(ulong address)
    {
        _pieces.Add(new MarkupPiece.ObjectAddress(address));
        return this;
    }

    public MarkupBuilder Thread(uint osThreadId)
    {
        _pieces.Add(new MarkupPiece.Thread(osThreadId));
        return this;
    }

    public MarkupBuilder Native(ulong address)
    {
        _pieces.Add(new MarkupPiece.NativeAddress(address));
        return this;
    }

    public Markup Build() => new(_pieces.ToArray());

    public static implicit operator Markup(MarkupBuilder builder) => builder.Build();
}
