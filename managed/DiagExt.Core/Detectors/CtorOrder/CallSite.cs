namespace DiagExt.Core.Detectors.CtorOrder;

/// <summary>
/// Code that takes a constructor by its position in reflection's list: where it is (assembly, type,
/// method, IL offsets, source line when a portable PDB is there) and what it does.
/// </summary>
public sealed record CallSite(
    string Assembly,
    string AssemblyPath,
    string Type,
    string Method,
    int MethodToken,
    int IlOffset,
    int SourceCallIlOffset,
    string Pattern,
    string? AppliedTo,
    string? SourceFile,
    int? SourceLine,
    bool SortedBeforePick = false,
    IReadOnlyList<string>? AlsoIn = null,
    int? NamedTypeConstructors = null,
    string? TypeUnknown = null)
{
    // SortedBeforePick: the list was sorted before the pick (First or Last); a reordered type then matters only where two keys tie.
    // NamedTypeConstructors: the type named in the code has that many matching constructors (more than one): proven.
    // TypeUnknown: why the type is one only its own library knows (built at run time, fixed by convention): information.
    // AlsoIn: the other files holding the same assembly's same pick (one package, several target frameworks).

    /// <summary>"Type.Method(...) IL_0012 (File.cs:42)" for one-line reports.</summary>
    public string Location => $"{Method} IL_{IlOffset:x4}{(SourceFile is null ? "" : $" ({Path.GetFileName(SourceFile)}:{SourceLine})")}";
}
