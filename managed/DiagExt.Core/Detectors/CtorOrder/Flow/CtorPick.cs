using System.Reflection.Metadata;

namespace DiagExt.Core.Detectors.CtorOrder.Flow;

/// <summary>
/// One place where code takes a constructor by its position in reflection's list: the list's source
/// call, what was done to it, and the instruction that picks.
/// </summary>
internal sealed record CtorPick(
    MethodDefinitionHandle Method,
    int SourceOffset,
    int PickOffset,
    string Pattern,
    string? AppliedTo,
    EntityHandle AppliedToHandle,
    bool Sorted);
