namespace DiagExt.Core.Detectors.CtorOrder.Flow;

/// <summary>
/// What a flow value that is a known type (named by typeof, a framework type the code tested, a delegate type, or one
/// of a few of these) says about the constructor list taken from it: its name for the reader, and how many
/// constructors match the binding flags (null when that cannot be counted).
/// </summary>
internal static class KnownTypes
{
    public static string? Describe(FlowValue type) => type switch
    {
        TypeValue t => t.Name,
        FrameworkTypeValue tested => $"{tested.Namespace}.{tested.Name} (the code tested it)",
        DelegateTypeValue d => $"a delegate type ({d.From})",
        CompilerGeneratedTypeValue => "a compiler-generated type (the code tested it)",
        GenericOfValue generic => $"{generic.Definition.Name} (the code tested its generic definition)",
        // A set holding a type the code does not name is as unknown as that type.
        TypeSetValue set => set.Types.Select(Describe).ToList() is var names && names.All(n => n is not null) ? "one of " + string.Join(", ", names) : null,
        _ => null,
    };

    /// <summary>The most constructors any of the types can have under <paramref name="flags"/>; null when one of them is not counted.</summary>
    public static int? Count(ConstructorCounter counter, FlowValue type, int flags) => type switch
    {
        TypeValue known => counter.Count(known.Handle, flags),
        // A constructed generic has its definition's constructors.
        GenericOfValue generic => counter.Count(generic.Definition.Handle, flags),
        FrameworkTypeValue framework => ConstructorCounter.CountFramework(framework.Namespace, framework.Name, flags),
        // The runtime gives every delegate type one public instance constructor.
        DelegateTypeValue => flags < 0 ? null
            : (flags & ConstructorCounter.PublicFlag) != 0 && (flags & ConstructorCounter.InstanceFlag) != 0 ? 1 : 0,
        // One public instance constructor; a static one too in a lambda cache (<>c), so static non-public ones are not counted.
        CompilerGeneratedTypeValue => flags < 0 || (flags & ConstructorCounter.StaticFlag) != 0 && (flags & ConstructorCounter.NonPublicFlag) != 0 ? null
            : (flags & ConstructorCounter.PublicFlag) != 0 && (flags & ConstructorCounter.InstanceFlag) != 0 ? 1 : 0,
        TypeSetValue set => set.Types.Select(t => Count(counter, t, flags)).Aggregate((int?)0, (max, n) => max is int m && n is int k ? Math.Max(m, k) : null),
        _ => null,
    };
}
