using System.Reflection;

namespace CtorOrderSample;

/// <summary>
/// Issue 28's categories: the constructor list or the one a loop matched travels before anything is picked (what a
/// loop made from it, a closure, an out argument, an iterator, a library's own First helper, a collection it is handed
/// to before the loop is left). Each of these is order-dependent.
/// </summary>
public static class FlowSelectors
{
    /// <summary>The first constructor a factory can build wins: what the loop returns is made from it.</summary>
    public static object? FirstThatBuilds(Type type, Func<ConstructorInfo, object?> tryBuild)
    {
        foreach (ConstructorInfo c in type.GetConstructors())
        {
            object? built = tryBuild(c);
            if (built is not null)
                return built;
        }
        return null;
    }

    /// <summary>A factory delegate closing over the greediest resolvable constructor (McMaster's shape): equal counts tie.</summary>
    public static Func<object>? FactoryForGreediest(Type type, Func<Type, object?> resolve)
    {
        foreach (ConstructorInfo c in type.GetConstructors().OrderByDescending(c => c.GetParameters().Length))
        {
            object?[] arguments = c.GetParameters().Select(p => resolve(p.ParameterType)).ToArray();
            if (arguments.All(a => a is not null))
                return () => c.Invoke(arguments);
        }
        return null;
    }

    /// <summary>The first one-parameter constructor, handed back through an out argument.</summary>
    public static bool TryFirstWithOneParameter(Type type, out ConstructorInfo? found)
    {
        foreach (ConstructorInfo c in type.GetConstructors())
        {
            if (c.GetParameters().Length == 1)
            {
                found = c;
                return true;
            }
        }
        found = null;
        return false;
    }

    /// <summary>The first signature that fits, from an iterator that yields them sorted by parameter count (ties kept).</summary>
    public static Type[]? FirstFittingSignature(Type type, Func<Type[], bool> fits)
    {
        foreach (Type[] signature in Signatures(type))
            if (fits(signature))
                return signature;
        return null;
    }

    private static IEnumerable<Type[]> Signatures(Type type)
    {
        foreach (ConstructorInfo c in type.GetConstructors().OrderBy(c => c.GetParameters().Length))
            yield return c.GetParameters().Select(p => p.ParameterType).ToArray();
    }

    /// <summary>A library's own First(): a helper that returns the first element of whatever it is given.</summary>
    public static ConstructorInfo? FirstByOwnHelper(Type type) => FirstOf(type.GetConstructors());

    private static T? FirstOf<T>(IEnumerable<T> items)
    {
        foreach (T item in items)
            return item;
        return default;
    }

    /// <summary>The first constructor that fits is registered, then the loop is left: the registry holds the first.</summary>
    public static void RegisterFirstFitting(Type type, List<ConstructorInfo> registry, Func<ConstructorInfo, bool> fits)
    {
        foreach (ConstructorInfo c in type.GetConstructors())
        {
            if (fits(c))
            {
                registry.Add(c);
                break;
            }
        }
    }

    /// <summary>
    /// The longest kept, with a flag raised when some constructor cannot be used: the flag is no tie check (it is never
    /// lowered for a new longest), so two longest constructors still come out in array order.
    /// </summary>
    public static ConstructorInfo? LongestUnlessUnusable(Type type)
    {
        ConstructorInfo? longest = null;
        int length = -1;
        bool unusable = false;
        foreach (ConstructorInfo c in type.GetConstructors())
        {
            ParameterInfo[] parameters = c.GetParameters();
            if (parameters.Any(p => p.ParameterType.IsPointer))
                unusable = true;
            else if (parameters.Length > length)
            {
                longest = c;
                length = parameters.Length;
            }
        }
        if (unusable)
            throw new NotSupportedException($"{type.Name} has a constructor taking a pointer");
        return longest;
    }

    /// <summary>
    /// The first constructor whose parameters are all optional only sizes the argument array, and Activator picks a
    /// constructor by that size: (int = 0) and (string = null, int = 0) both qualify, and each size builds through another.
    /// </summary>
    public static object? BuildWithDefaults(Type type)
    {
        object?[] args = [];
        foreach (ConstructorInfo c in type.GetConstructors())
        {
            ParameterInfo[] parameters = c.GetParameters();
            if (Array.TrueForAll(parameters, p => p.IsOptional))
            {
                args = new object?[parameters.Length];
                break;
            }
        }
        return Activator.CreateInstance(type, args);
    }

    /// <summary>
    /// The Type of any expression, not a lambda: a constant's or a new object's type has as many constructors as it
    /// declares (the control for <see cref="DelegateTypeSelectors"/>).
    /// </summary>
    public static ConstructorInfo OfExpressionType(System.Linq.Expressions.Expression expression) => expression.Type.GetConstructors()[0];
}

/// <summary>The same flows where the code proves only one constructor can come out: none may be flagged.</summary>
public static class ProvenFlowSelectors
{
    /// <summary>A marker attribute tested in the loop: one constructor wears it.</summary>
    public static ConstructorInfo? Marked(Type type)
    {
        foreach (ConstructorInfo c in type.GetConstructors())
            if (c.IsDefined(typeof(PreferredConstructorAttribute), false))
                return c;
        return null;
    }

    /// <summary>The argument array sized from the one constructor wearing the marker: only one can.</summary>
    public static object? BuildMarkedWithDefaults(Type type)
    {
        object?[] args = [];
        foreach (ConstructorInfo c in type.GetConstructors())
            if (c.IsDefined(typeof(PreferredConstructorAttribute), false))
            {
                args = new object?[c.GetParameters().Length];
                break;
            }
        return Activator.CreateInstance(type, args);
    }

    /// <summary>A second match throws: the one kept is the only one.</summary>
    public static ConstructorInfo? OnlyOneParameterOrThrow(Type type)
    {
        ConstructorInfo? found = null;
        foreach (ConstructorInfo c in type.GetConstructors())
        {
            if (c.GetParameters().Length != 1)
                continue;
            if (found is not null)
                throw new InvalidOperationException($"{type.Name} has two one-parameter constructors");
            found = c;
        }
        return found;
    }

    /// <summary>The same through an out argument (Microsoft.Extensions.DependencyInjection's ActivatorUtilities).</summary>
    public static bool TryOnlyOneParameter(Type type, out ConstructorInfo? found)
    {
        found = null;
        foreach (ConstructorInfo c in type.GetConstructors())
        {
            if (c.GetParameters().Length != 1)
                continue;
            if (found != null)
                throw new InvalidOperationException($"{type.Name} has two one-parameter constructors");
            found = c;
        }
        return found != null;
    }

    /// <summary>The code proved the type is a Nullable&lt;T&gt;, which declares one constructor.</summary>
    public static ConstructorInfo? OfNullable(Type type) =>
        Nullable.GetUnderlyingType(type) != null ? type.GetTypeInfo().DeclaredConstructors.First() : null;

    /// <summary>decimal declares one constructor with five parameters.</summary>
    public static ConstructorInfo DecimalFromParts() => typeof(decimal).GetTypeInfo().DeclaredConstructors.First(c => c.GetParameters().Length == 5);

    /// <summary>The same in a loop, both ways the compiler writes the test: decimal has one five-parameter constructor.</summary>
    public static ConstructorInfo? DecimalFromPartsInLoop()
    {
        foreach (ConstructorInfo c in typeof(decimal).GetConstructors())
            if (c.GetParameters().Length == 5)
                return c;
        return null;
    }

    public static ConstructorInfo? DecimalFromPartsSkipping()
    {
        foreach (ConstructorInfo c in typeof(decimal).GetConstructors())
        {
            if (c.GetParameters().Length != 5)
                continue;
            return c;
        }
        return null;
    }

    /// <summary>A predicate whose helper tests one exact signature.</summary>
    public static ConstructorInfo? TakingString(Type type) => type.GetConstructors().FirstOrDefault(c => HasOneParameterOf(c, typeof(string)));

    private static bool HasOneParameterOf(MethodBase method, Type parameterType)
    {
        ParameterInfo[] parameters = method.GetParameters();
        return parameters.Length == 1 && parameters[0].ParameterType == parameterType;
    }

    /// <summary>
    /// The longest kept, a flag raised on a tie and lowered on a new longest, thrown after the loop (issue 41, the shape of
    /// ASP.NET Core routing's parameter-policy activator): the one returned is the only longest.
    /// </summary>
    public static ConstructorInfo? LongestOrThrowOnTie(Type type)
    {
        ConstructorInfo? longest = null;
        int length = -1;
        bool tie = false;
        foreach (ConstructorInfo c in type.GetConstructors())
        {
            int n = c.GetParameters().Length;
            if (n > length)
            {
                tie = false;
                longest = c;
                length = n;
            }
            else if (n == length)
                tie = true;
        }
        if (tie)
            throw new InvalidOperationException($"{type.Name} has two constructors of {length} parameters");
        return longest;
    }

    /// <summary>Every constructor handed on, none picked.</summary>
    public static void RegisterAll(Type type, List<ConstructorInfo> registry)
    {
        foreach (ConstructorInfo c in type.GetConstructors())
            registry.Add(c);
    }
}

/// <summary>Marks the constructor a container should use.</summary>
[AttributeUsage(AttributeTargets.Constructor)]
public sealed class PreferredConstructorAttribute : Attribute
{
}
