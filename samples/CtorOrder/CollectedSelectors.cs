using System.Reflection;

namespace CtorOrderSample;

/// <summary>
/// Issue 41, category 1 within a method (the shape of LiteDB's GetTypeCtor): a loop over the constructors fills a
/// List&lt;T&gt; with what each usable one makes (a factory closing over its parameters, or the constructor itself), and
/// the first of the list is used: the first constructor that got there, in reflection's order. Flagged:
/// <see cref="FirstFactory"/>, <see cref="FirstCollected"/>. Not flagged: a list filled only with the one constructor
/// wearing a marker, a list whose first is taken only when it holds one (the others only name the tie in the exception
/// thrown), and a list whose first is never taken (all are used).
/// </summary>
public static class CollectedSelectors
{
    public static Func<object?[], object>? FirstFactory(Type type)
    {
        var factories = new List<Func<object?[], object>>();
        foreach (ConstructorInfo constructor in type.GetConstructors())
        {
            ParameterInfo[] parameters = constructor.GetParameters();
            if (parameters.Length == 0)
                continue;
            var defaults = new object?[parameters.Length];
            factories.Add(args => Activator.CreateInstance(type, args.Length == 0 ? defaults : args)!);
        }
        return factories.FirstOrDefault();
    }

    public static ConstructorInfo? FirstCollected(Type type)
    {
        var usable = new List<ConstructorInfo>(4);
        foreach (ConstructorInfo constructor in type.GetConstructors())
            if (constructor.GetParameters().All(p => p.HasDefaultValue))
                usable.Add(constructor);
        return usable.Count > 0 ? usable[0] : null;
    }

    public static ConstructorInfo? OnlyMarked(Type type)
    {
        var marked = new List<ConstructorInfo>();
        foreach (ConstructorInfo constructor in type.GetConstructors())
            if (constructor.IsDefined(typeof(PreferredAttribute), false))
                marked.Add(constructor);
        return marked.FirstOrDefault();
    }

    public static ConstructorInfo? OnlyCollected(Type type)
    {
        var usable = new List<ConstructorInfo>();
        foreach (ConstructorInfo constructor in type.GetConstructors())
            if (constructor.GetParameters().All(p => p.HasDefaultValue))
                usable.Add(constructor);
        if (usable.Count == 1)
            return usable[0];
        if (usable.Count > 1)
            throw new AmbiguousMatchException($"{usable[0]} and {usable[1]} both fit");
        return null;
    }

    public static int CountUsable(Type type)
    {
        var usable = new List<ConstructorInfo>();
        foreach (ConstructorInfo constructor in type.GetConstructors())
            if (constructor.GetParameters().Length > 0)
                usable.Add(constructor);
        return usable.Count;
    }

    [AttributeUsage(AttributeTargets.Constructor)]
    public sealed class PreferredAttribute : Attribute;
}
