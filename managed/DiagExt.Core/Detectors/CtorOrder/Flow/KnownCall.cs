using DiagExt.Core.Detectors.CtorOrder.Model;
using DiagExt.Core.Il;

namespace DiagExt.Core.Detectors.CtorOrder.Flow;

/// <summary>The calls the constructor-order analysis understands; everything else is opaque.</summary>
internal enum KnownCallKind
{
    Other,

    /// <summary>Type.GetConstructors() / GetConstructors(BindingFlags) / TypeExtensions.GetConstructors.</summary>
    GetConstructors,

    /// <summary>TypeInfo.DeclaredConstructors.</summary>
    DeclaredConstructors,

    /// <summary>Type.GetTypeFromHandle: the second half of typeof(T).</summary>
    TypeFromHandle,

    /// <summary>GetTypeInfo() or MakeGenericType(): the same constructors, seen through another Type object.</summary>
    TypeInfo,

    /// <summary>Order-preserving steps: Where, Select, ToArray, ToList, Cast, new List&lt;T&gt;(source)...</summary>
    PassThrough,

    /// <summary>OrderBy/OrderByDescending/ThenBy/ThenByDescending with a key selector.</summary>
    OrderBy,

    /// <summary>Array.Sort / List.Sort: unstable, so equal keys come out in any order.</summary>
    Sort,

    /// <summary>First/FirstOrDefault/Last/LastOrDefault, with or without a predicate.</summary>
    PickEnd,

    /// <summary>MaxBy/MinBy(key) or Aggregate(func): the first of the elements with the best key wins a tie.</summary>
    PickBy,

    /// <summary>ElementAt/ElementAtOrDefault(index).</summary>
    ElementAt,

    /// <summary>Indexer of a list: list[i].</summary>
    IndexGet,

    /// <summary>Single/SingleOrDefault: throws when more than one matches, so order does not matter.</summary>
    Single,

    /// <summary>Count/Length of the list.</summary>
    Count,

    /// <summary>Any() without a predicate: Count > 0.</summary>
    Any,

    /// <summary>GetEnumerator(): the start of a foreach over a sequence.</summary>
    GetEnumerator,

    /// <summary>IEnumerator.Current: the loop's element.</summary>
    Current,

    /// <summary>IEnumerator.MoveNext(): true while the list has more.</summary>
    MoveNext,
}

internal static class KnownCall
{
    public static KnownCallKind Classify(MethodReference m)
    {
        string owner = m.OpenDeclaringType;
        string name = m.Name;
        switch (owner)
        {
            case "System.Type" or "System.Reflection.TypeInfo" or "System.RuntimeType":
                return name switch
                {
                    "GetConstructors" when m.HasThis && m.ParameterCount <= 1 => KnownCallKind.GetConstructors,
                    "get_DeclaredConstructors" => KnownCallKind.DeclaredConstructors,
                    "GetTypeFromHandle" when !m.HasThis => KnownCallKind.TypeFromHandle,
                    "GetTypeInfo" => KnownCallKind.TypeInfo,
                    // Every instantiation of a generic type has its definition's constructors.
                    "MakeGenericType" => KnownCallKind.TypeInfo,
                    _ => KnownCallKind.Other,
                };
            case "System.Reflection.TypeExtensions":
                return name == "GetConstructors" ? KnownCallKind.GetConstructors : KnownCallKind.Other;
            case "System.Reflection.IntrospectionExtensions":
                return name == "GetTypeInfo" ? KnownCallKind.TypeInfo : KnownCallKind.Other;
            case "System.Linq.Enumerable":
                // The picks, order-keeping steps and sorts are the shared model's (the Roslyn analyzer uses the same lists).
                return name switch
                {
                    _ when name.StartsWith("ElementAt", StringComparison.Ordinal) && OrderDependentPick.PositionalPicks.Contains(name) => KnownCallKind.ElementAt,
                    _ when OrderDependentPick.PositionalPicks.Contains(name) => KnownCallKind.PickEnd,
                    _ when OrderDependentPick.PicksByKey.Contains(name) && m.ParameterCount == 2 => KnownCallKind.PickBy,
                    _ when OrderDependentPick.OrderIndependent.Contains(name) => KnownCallKind.Single,
                    _ when OrderDependentPick.Sorts.Contains(name) && m.ParameterCount == 2 => KnownCallKind.OrderBy,
                    "Count" or "LongCount" when m.ParameterCount == 1 => KnownCallKind.Count,
                    "Any" when m.ParameterCount == 1 => KnownCallKind.Any,
                    _ when OrderDependentPick.OrderPreserving.Contains(name) => KnownCallKind.PassThrough,
                    _ => KnownCallKind.Other,
                };
            case "System.Collections.Generic.List" or "System.Collections.Generic.IList" or "System.Collections.Generic.IReadOnlyList"
                or "System.Collections.ObjectModel.Collection" or "System.Collections.ObjectModel.ReadOnlyCollection"
                or "System.Collections.Immutable.ImmutableArray" or "System.Collections.Generic.ICollection"
                or "System.Collections.Generic.IReadOnlyCollection" or "System.Collections.IList" or "System.Collections.ICollection":
                return name switch
                {
                    ".ctor" when m.ParameterCount == 1 => KnownCallKind.PassThrough,
                    "get_Item" when m.ParameterCount == 1 => KnownCallKind.IndexGet,
                    "get_Count" or "get_Length" => KnownCallKind.Count,
                    "Sort" => KnownCallKind.Sort,
                    "GetEnumerator" => KnownCallKind.GetEnumerator,
                    _ => KnownCallKind.Other,
                };
            case "System.Array":
                return name switch
                {
                    "Sort" => KnownCallKind.Sort,
                    "get_Length" => KnownCallKind.Count,
                    _ => KnownCallKind.Other,
                };
            default:
                // foreach over any sequence of constructors: whose GetEnumerator it is does not matter.
                return name switch
                {
                    "GetEnumerator" when m.ParameterCount == 0 => KnownCallKind.GetEnumerator,
                    "get_Current" when owner.StartsWith("System.Collections", StringComparison.Ordinal) => KnownCallKind.Current,
                    "MoveNext" when m.ParameterCount == 0 && owner.StartsWith("System.Collections", StringComparison.Ordinal) => KnownCallKind.MoveNext,
                    _ => KnownCallKind.Other,
                };
        }
    }

    /// <summary>Whether a call's token could name a constructor source: the cheap test that decides which methods to analyse.</summary>
    public static bool IsSource(MethodReference m) => Classify(m) is KnownCallKind.GetConstructors or KnownCallKind.DeclaredConstructors;
}
