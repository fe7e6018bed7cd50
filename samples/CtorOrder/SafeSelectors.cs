using System.Reflection;

namespace CtorOrderSample;

/// <summary>Ways to choose a constructor that do not depend on reflection's order: none may be flagged.</summary>
public static class SafeSelectors
{
    /// <summary>Single() throws when there is more than one.</summary>
    public static ConstructorInfo OnlyOne(Type type) => type.GetConstructors().Single();

    /// <summary>Index 0 only after proving there is exactly one.</summary>
    public static ConstructorInfo? GuardedByLength(Type type)
    {
        ConstructorInfo[] constructors = type.GetConstructors();
        if (constructors.Length == 1)
            return constructors[0];
        return null;
    }

    /// <summary>Index 0 on the other side of a "more than one" check that throws.</summary>
    public static ConstructorInfo GuardedByThrow(Type type)
    {
        ConstructorInfo[] constructors = type.GetConstructors();
        if (constructors.Length != 1)
            throw new InvalidOperationException($"{type.Name} must have exactly one public constructor, not {constructors.Length}");
        return constructors[0];
    }

    /// <summary>Picks by parameter types.</summary>
    public static ConstructorInfo? ByParameterTypes(Type type) => type.GetConstructor(new[] { typeof(string) });

    /// <summary>Picks the parameterless one by looking at the parameters.</summary>
    public static ConstructorInfo? Parameterless(Type type) => type.GetConstructors().FirstOrDefault(c => c.GetParameters().Length == 0);

    /// <summary>Sorts by a key no two constructors share: declaration (metadata token) order, the same on every runtime.</summary>
    public static ConstructorInfo DeclarationOrder(Type type) => type.GetConstructors().OrderBy(c => c.MetadataToken).First();

    /// <summary>Declaration order, sorted in place: a comparison of metadata tokens never ties, so the sort's instability cannot show.</summary>
    public static ConstructorInfo DeclarationOrderSortedInPlace(Type type)
    {
        ConstructorInfo[] constructors = type.GetConstructors();
        Array.Sort(constructors, (a, b) => a.MetadataToken.CompareTo(b.MetadataToken));
        return constructors[0];
    }

    /// <summary>Visits every constructor: no position is privileged.</summary>
    public static int CountWithParameters(Type type)
    {
        int count = 0;
        ConstructorInfo[] constructors = type.GetConstructors();
        for (int i = 0; i < constructors.Length; i++)
            if (constructors[i].GetParameters().Length > 0)
                count++;
        return count;
    }

    /// <summary>A type with one public constructor: index 0 is that one on every runtime.</summary>
    public static ConstructorInfo OfSingleConstructorType() => typeof(Base).GetConstructors(BindingFlags.NonPublic | BindingFlags.Instance).Length == 0
        ? typeof(OneConstructor).GetConstructors()[0]
        : throw new InvalidOperationException();

    /// <summary>Exact parameter types: at most one constructor matches, whether the predicate is given to Where or to FirstOrDefault.</summary>
    public static ConstructorInfo? ExactTypesWhere(Type type, Type[] types) =>
        type.GetConstructors().Where(c => types.SequenceEqual(c.GetParameters().Select(p => p.ParameterType))).FirstOrDefault();

    public static ConstructorInfo? ExactTypesFirst(Type type, Type[] types) =>
        type.GetConstructors().FirstOrDefault(c => types.SequenceEqual(c.GetParameters().Select(p => p.ParameterType)));

    /// <summary>A framework type with one public constructor, resolved in the runtime's own assemblies.</summary>
    public static ConstructorInfo ReadOnlyDictionaryOf(Type key, Type value) =>
        typeof(System.Collections.ObjectModel.ReadOnlyDictionary<,>).MakeGenericType(key, value).GetConstructors()[0];

    /// <summary>A loop that returns the one with no parameters: a type has at most one.</summary>
    public static ConstructorInfo? ParameterlessByLoop(Type type)
    {
        foreach (ConstructorInfo c in type.GetConstructors())
            if (c.GetParameters().Length == 0)
                return c;
        return null;
    }

    /// <summary>The loop form of an exact signature: (SerializationInfo, StreamingContext) names one constructor.</summary>
    public static ConstructorInfo? SerializationConstructorByLoop(Type type)
    {
        foreach (ConstructorInfo c in type.GetConstructors(BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic))
        {
            ParameterInfo[] p = c.GetParameters();
            if (p.Length == 2 && p[0].ParameterType == typeof(System.Runtime.Serialization.SerializationInfo) && p[1].ParameterType == typeof(System.Runtime.Serialization.StreamingContext))
                return c;
        }
        return null;
    }

    /// <summary>The enumerator's first element, returned only when a second MoveNext shows it is the only one (Newtonsoft's shape).</summary>
    public static ConstructorInfo? OnlyByEnumerator(Type type)
    {
        IEnumerator<ConstructorInfo> e = ((IEnumerable<ConstructorInfo>)type.GetConstructors()).GetEnumerator();
        if (e.MoveNext())
        {
            ConstructorInfo current = e.Current;
            if (!e.MoveNext())
                return current;
        }
        return null;
    }

    /// <summary>
    /// Counts the matches and keeps the last; returns it only when there was exactly one (protobuf-net's shape). The
    /// loop repeats HazardousSelectors.LastMatchCounted on purpose: the counter and the check must be in one method body.
    /// </summary>
    public static ConstructorInfo? OnlyMatchCounted(Type type, Type argument)
    {
        ConstructorInfo[] constructors = type.GetConstructors();
        int matches = 0;
        ConstructorInfo? found = null;
        for (int i = 0; i < constructors.Length; i++)
        {
            ParameterInfo[] p = constructors[i].GetParameters();
            if (p.Length == 1 && p[0].ParameterType.IsAssignableFrom(argument))
            {
                matches++;
                found = constructors[i];
            }
        }
        if (matches != 1)
            return null;
        return found;
    }

    public sealed class OneConstructor
    {
        public OneConstructor(int value) => Value = value;

        public int Value { get; }
    }
}
