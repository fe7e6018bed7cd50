using DiagExt.Core.Heap;
using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.DictCycle;

/// <summary>Recognises Dictionary/HashSet types (any instantiation, and user classes deriving from them) and their methods on a stack.</summary>
internal sealed class HashTableTypes : IHeapInterest
{
    private static readonly string[] Prefixes =
    [
        "System.Collections.Generic.Dictionary<",
        "System.Collections.Generic.HashSet<",
    ];

    /// <summary>
    /// By name alone: arrays end in ']' and value types cannot derive from these classes. (ClrMD's IsValueType
    /// throws NullReferenceException on a type whose MethodTable is corrupt, so it is not asked.)
    /// </summary>
    public bool Wants(ClrType type) => CollectionTypeOf(type) is not null;

    /// <summary>The Dictionary/HashSet type itself (the type, or the base a user class derives from), or null.</summary>
    public static string? CollectionTypeOf(ClrType type) =>
        TypeHierarchy.SelfAndBases(type).FirstOrDefault(t => IsCollectionTypeName(t.Name))?.Name;

    /// <summary>The collection itself, not a nested type such as Dictionary&lt;K,V&gt;+KeyCollection.</summary>
    public static bool IsCollectionTypeName(string? name) =>
        name is not null && Prefixes.Any(p => name.StartsWith(p, StringComparison.Ordinal)) && !name.EndsWith(']') && !HasNestedSuffix(name);

    /// <summary>A frame of Dictionary`2/HashSet`1 code (not of their enumerators or key/value collections).</summary>
    public static bool IsCollectionMethod(ManagedFrame frame) =>
        frame.TypeName is { } name
        && (name.StartsWith("System.Collections.Generic.Dictionary", StringComparison.Ordinal) || name.StartsWith("System.Collections.Generic.HashSet", StringComparison.Ordinal))
        && !HasNestedSuffix(name);

    /// <summary>Whether a generic type name continues after its closing '>' with "+Nested".</summary>
    private static bool HasNestedSuffix(string name)
    {
        int depth = 0;
        for (int i = 0; i < name.Length; i++)
        {
            char c = name[i];
            if (c is '<' or '[')
                depth++;
            else if (c is '>' or ']')
                depth--;
            else if (c == '+' && depth == 0)
                return true;
        }
        return false;
    }
}
