using System.Reflection.Metadata;

namespace DiagExt.Core.Detectors.CtorOrder.Flow;

/// <summary>
/// One place where code takes a constructor by its position in reflection's list: the list's source
/// call, what was done to it, and the instruction that picks. <see cref="NamedTypeConstructors"/> is set when the
/// code names the type and it has that many (more than one) matching constructors: the pick is then proven order-dependent.
/// <see cref="TypeUnknown"/> says why the type is one only its own library knows (built at run time, fixed by convention).
/// </summary>
internal sealed record CtorPick(
    MethodDefinitionHandle Method,
    int SourceOffset,
    int PickOffset,
    string Pattern,
    string? AppliedTo,
    EntityHandle AppliedToHandle,
    bool Sorted,
    int? NamedTypeConstructors,
    string? TypeUnknown)
{
    /// <summary>The list's site in the method: an IL offset, or below zero for a parameter (-1 - argument index).</summary>
    public int ListSite { get; init; }

    /// <summary>The binding flags the list was asked with (-1 when not a constant).</summary>
    public int Flags { get; init; } = -1;
}

/// <summary>
/// What analysing one method gives: its picks, the constructor list it hands back, if any, and the types of the picks
/// left alone because the type the code names has at most one matching constructor (said in the scan's note).
/// </summary>
internal sealed record FlowResult(IReadOnlyList<CtorPick> Picks, MethodSummaries.ReturnedList? HandsBack, IReadOnlyList<string> LeftByCount);
