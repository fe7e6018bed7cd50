using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Heap;

/// <summary>A type and its base types, as far as a target's (possibly corrupt, possibly looping) hierarchy can be trusted.</summary>
public static class TypeHierarchy
{
    /// <summary>Deeper than any real hierarchy: a corrupt MethodTable can make BaseType loop.</summary>
    public const int MaxDepth = 16;

    /// <summary>The type, then its base types, at most <see cref="MaxDepth"/>. ClrMD may throw on a corrupt one: callers decide.</summary>
    public static IEnumerable<ClrType> SelfAndBases(ClrType? type)
    {
        for (int depth = 0; type is not null && depth < MaxDepth; depth++, type = type.BaseType)
            yield return type;
    }
}
