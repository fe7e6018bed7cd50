namespace DiagExt.Fuzz.Engine;

/// <summary>
/// One reader of target bytes under test. <see cref="Execute"/> runs the reader (and what consumes its output) on an
/// input and checks the properties; it returns a signature of what the input made the reader do, so inputs that do
/// something new are kept. It throws <see cref="PropertyViolation"/> when a property fails.
/// </summary>
public interface IFuzzTarget
{
    /// <summary>The name used on the command line and for corpus folders: minidump, pe, elf, il, hashtable, dml.</summary>
    string Name { get; }

    /// <summary>Which DiagExt code this target drives, for the report.</summary>
    string Covers { get; }

    /// <summary>Seeds made in code from nothing but the repository: the smoke test runs on these when no dump was made yet.</summary>
    IEnumerable<byte[]> BuiltInSeeds();

    /// <summary>Byte strings worth inserting (magic numbers, markup), like an AFL dictionary.</summary>
    IReadOnlyList<byte[]> Tokens { get; }

    /// <summary>The fields of the input's structure a reader trusts (empty when it cannot be parsed).</summary>
    IReadOnlyList<Field> Fields(ReadOnlySpan<byte> input);

    /// <summary>Exceptions the CLI documents as "bad input" for this reader (shown as one line, exit code 2).</summary>
    bool IsDocumentedRejection(Exception e);

    /// <summary>Runs the reader on <paramref name="input"/>; returns what it did, as a short signature.</summary>
    string Execute(ReadOnlyMemory<byte> input);
}
