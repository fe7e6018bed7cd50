namespace DiagExt.Core.Detectors.CtorOrder.Flow;

/// <summary>
/// Signature types that hold constructors: a parameter or a returned value of one of these is treated as a
/// constructor list whose order nobody proved (a wrapper around GetConstructors, a list handed to a helper).
/// </summary>
internal static class CtorCollectionTypes
{
    private const string Ctor = "System.Reflection.ConstructorInfo";

    private static readonly string[] Generic =
    [
        "System.Collections.Generic.IEnumerable", "System.Collections.Generic.List", "System.Collections.Generic.IList",
        "System.Collections.Generic.IReadOnlyList", "System.Collections.Generic.ICollection", "System.Collections.Generic.IReadOnlyCollection",
        "System.Linq.IOrderedEnumerable", "System.Collections.Immutable.ImmutableArray",
    ];

    public static bool Holds(string type) => type == Ctor + "[]" || Generic.Any(g => type == $"{g}<{Ctor}>");

    /// <summary>A parameter type a helper could be handed a constructor list in: an array or a generic sequence of anything.</summary>
    public static bool IsSequence(string type) => type.EndsWith("[]", StringComparison.Ordinal)
        || Generic.Any(g => type.StartsWith(g + "<", StringComparison.Ordinal)) || type == "System.Collections.IEnumerable";

    /// <summary>Arrays and lists take an index; other sequences only enumerate.</summary>
    public static bool IsIndexable(string type) => type.EndsWith("[]", StringComparison.Ordinal) || type.Contains("List<", StringComparison.Ordinal) || type.Contains("ImmutableArray<", StringComparison.Ordinal);
}
