using System.Linq.Expressions;
using System.Reflection;

namespace CtorOrderSample;

/// <summary>Other shapes of the same hazard: each takes a constructor by its place in reflection's list.</summary>
public static class HazardousSelectors
{
    public static ConstructorInfo FirstOfAll(Type type) => type.GetConstructors().First();

    public static ConstructorInfo? FirstDeclared(Type type)
    {
        IEnumerable<ConstructorInfo> declared = type.GetTypeInfo().DeclaredConstructors;
        return declared.FirstOrDefault();
    }

    public static ConstructorInfo ElementZero(Type type) => type.GetConstructors(BindingFlags.Public | BindingFlags.Instance).ElementAt(0);

    /// <summary>"The greediest constructor": two constructors with as many parameters tie, and the tie keeps reflection's order.</summary>
    public static ConstructorInfo Greediest(Type type) =>
        type.GetConstructors().OrderByDescending(c => c.GetParameters().Length).First();

    /// <summary>The greediest, sorted in place: Array.Sort is unstable, so tied constructors come out in no promised order at all.</summary>
    public static ConstructorInfo GreediestSortedInPlace(Type type)
    {
        ConstructorInfo[] constructors = type.GetConstructors();
        Array.Sort(constructors, (a, b) => b.GetParameters().Length.CompareTo(a.GetParameters().Length));
        return constructors[0];
    }

    /// <summary>The seed's CheckCtorOrder shape, on a list kept in a field of a closure.</summary>
    public static ConstructorInfo? FirstPublicLast(Type type)
    {
        var constructors = type.GetConstructors().Where(c => c.IsPublic).ToList();
        return constructors.Count > 0 ? constructors[constructors.Count > 1 ? 0 : 0] : null;
    }

    /// <summary>The common DI-container selector: the most parameters that resolve; equal counts keep reflection's order.</summary>
    public static ConstructorInfo? MostResolvable(Type type, Func<Type, bool> canResolve)
    {
        foreach (ConstructorInfo c in type.GetConstructors().OrderByDescending(c => c.GetParameters().Length))
            if (c.GetParameters().All(p => canResolve(p.ParameterType)))
                return c;
        return null;
    }

    /// <summary>The same with a for loop and an index over the sorted array.</summary>
    public static ConstructorInfo? MostResolvableByIndex(Type type, Func<Type, bool> canResolve)
    {
        ConstructorInfo[] sorted = type.GetConstructors().OrderByDescending(c => c.GetParameters().Length).ToArray();
        for (int i = 0; i < sorted.Length; i++)
            if (sorted[i].GetParameters().All(p => canResolve(p.ParameterType)))
                return sorted[i];
        return null;
    }

    /// <summary>Keeps the first one-parameter constructor that accepts the argument: ctor(object) and ctor(IEnumerable) both can.</summary>
    public static ConstructorInfo? FirstAssignableKept(Type type, Type argument)
    {
        ConstructorInfo? found = null;
        foreach (ConstructorInfo c in type.GetConstructors())
        {
            ParameterInfo[] p = c.GetParameters();
            if (found == null && p.Length == 1 && p[0].ParameterType.IsAssignableFrom(argument))
                found = c;
        }
        return found;
    }

    /// <summary>Several constructors can have only optional parameters: the first wins.</summary>
    public static ConstructorInfo? AllOptional(Type type) => type.GetConstructors().FirstOrDefault(c => c.GetParameters().All(p => p.IsOptional));

    /// <summary>ctor(IDisposable) and ctor(object) both accept a Stream: the first wins.</summary>
    public static ConstructorInfo OneAssignable(Type type, Type argument) =>
        type.GetConstructors().First(c => c.GetParameters().Length == 1 && c.GetParameters()[0].ParameterType.IsAssignableFrom(argument));

    /// <summary>Aggregate over the parameter count keeps the first of equal counts.</summary>
    public static ConstructorInfo Widest(Type type) =>
        type.GetConstructors().Aggregate((a, b) => b.GetParameters().Length > a.GetParameters().Length ? b : a);

#if NET6_0_OR_GREATER
    /// <summary>MaxBy keeps the first of equal keys.</summary>
    public static ConstructorInfo? Greedy(Type type) => type.GetConstructors().MaxBy(c => c.GetParameters().Length);
#endif

    /// <summary>A helper that picks by position from the list its caller passes.</summary>
    public static ConstructorInfo FirstOfGiven(ConstructorInfo[] constructors) => constructors[0];

    /// <summary>A wrapper's list, taken first by its caller.</summary>
    public static ConstructorInfo FirstOfWrapped(Type type) => PublicConstructors(type).First();

    private static ConstructorInfo[] PublicConstructors(Type type) => type.GetConstructors().Where(c => c.IsPublic).ToArray();

    /// <summary>FirstOrDefault() by hand: the enumerator's first element, used as it is (MessagePack's do/while shape).</summary>
    public static ConstructorInfo? FirstByEnumerator(Type type)
    {
        IEnumerator<ConstructorInfo> e = type.GetConstructors().OrderByDescending(c => c.GetParameters().Length).GetEnumerator();
        ConstructorInfo? first = null;
        if (e.MoveNext())
            first = e.Current;
        Console.WriteLine(first);
        return first;
    }

    /// <summary>The first resolvable one ends the loop; only when none is there does a fallback choose (Grace's BestMatch).</summary>
    public static ConstructorInfo? FirstResolvableOrFallback(Type type, Func<Type, bool> canResolve)
    {
        ConstructorInfo? chosen = null;
        foreach (ConstructorInfo c in type.GetConstructors())
        {
            if (c.GetParameters().All(p => canResolve(p.ParameterType)))
            {
                chosen = c;
                break;
            }
        }
        if (chosen == null)
            chosen = type.GetConstructor(Type.EmptyTypes);
        return chosen;
    }

    /// <summary>Counts the matches but only checks there was one at least: of several, the last in list order wins.</summary>
    public static ConstructorInfo? LastMatchCounted(Type type, Type argument)
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
        if (matches == 0)
            return null;
        return found;
    }

    /// <summary>
    /// Generated code with one "return new C(...)" per constructor in list order (Grace's dynamic constructor chain):
    /// when the delegate runs, the first constructor whose arguments all exist wins.
    /// </summary>
    public static Func<object?> GeneratedChain(Type type, Func<ParameterInfo, Expression?> locate)
    {
        LabelTarget done = Expression.Label(typeof(object));
        var body = new List<Expression>();
        foreach (ConstructorInfo c in type.GetConstructors())
        {
            Expression?[] arguments = c.GetParameters().Select(locate).ToArray();
            if (arguments.All(a => a is not null))
                body.Add(Expression.Return(done, Expression.New(c, arguments!)));
        }
        body.Add(Expression.Label(done, Expression.Constant(null)));
        return Expression.Lambda<Func<object?>>(Expression.Block(body)).Compile();
    }

    /// <summary>A type the code names with two public constructors: proven order-dependent without a process.</summary>
    public static ConstructorInfo NamedTwo() => typeof(TwoConstructors).GetConstructors()[0];

    /// <summary>The same with a framework type (StringBuilder has six public constructors), counted in the runtime's assemblies.</summary>
    public static ConstructorInfo NamedFramework() => typeof(System.Text.StringBuilder).GetConstructors().First();

    /// <summary>A loop asking for one parameter on a type with two one-parameter constructors: the arity does not settle it.</summary>
    public static ConstructorInfo? NamedTwoOfArityInLoop()
    {
        foreach (ConstructorInfo c in typeof(TwoConstructors).GetConstructors())
            if (c.GetParameters().Length == 1)
                return c;
        return null;
    }

    public sealed class TwoConstructors
    {
        public TwoConstructors(int value) => Value = value;

        public TwoConstructors(string text) => Value = text.Length;

        public int Value { get; }
    }
}
