using System.Collections.ObjectModel;
using System.Reflection;

namespace CtorOrderSample;

/// <summary>
/// Issue 41, category 4 through a local function (the shape of AutoMapper's collection mapper): the type a local function
/// picks from is a local it captured, which the enclosing method tested for its generic definition before the call, in
/// place or through a helper of its own; the definition it falls back to for an interface comes as an argument. Every
/// call passes generics with one public constructor, so <see cref="Wrap"/> is not flagged. Flagged: a call on a path
/// where the captured type was not tested, a test for a generic with three constructors, and a helper that walks base
/// types (a type deriving from the generic passes it, so it proves nothing about the type's own constructors).
/// </summary>
public static class CapturedTypeSelectors
{
    public static object? Wrap(Type destination, object inner)
    {
        if (destination.IsGenericOf(typeof(ReadOnlyCollection<>)))
            return Build(typeof(ReadOnlyCollection<>));
        if (destination.IsGenericType && (destination.GetGenericTypeDefinition() == typeof(ReadOnlyDictionary<,>) || destination.GetGenericTypeDefinition() == typeof(IReadOnlyDictionary<,>)))
            return Build(typeof(ReadOnlyDictionary<,>));
        return null;

        object Build(Type forInterface) =>
            (destination.IsInterface ? forInterface.MakeGenericType(destination.GenericTypeArguments) : destination).GetConstructors()[0].Invoke([inner]);
    }

    public static object? WrapUntested(Type destination, object inner)
    {
        if (destination.IsGenericOf(typeof(ReadOnlyCollection<>)))
            return Untested();
        if (destination.IsArray)
            return null;
        return Untested();

        object Untested() => destination.GetConstructors()[0].Invoke([inner]);
    }

    public static object? WrapList(Type destination)
    {
        if (destination.IsGenericOf(typeof(List<>)))
            return OfList();
        return null;

        object OfList() => destination.GetConstructors()[0].Invoke([]);
    }

    public static object? WrapDerived(Type destination, object inner)
    {
        if (destination.DerivesFromGeneric(typeof(ReadOnlyCollection<>)))
            return Derived();
        return null;

        object Derived() => destination.GetConstructors()[0].Invoke([inner]);
    }
}

/// <summary>The sample's own generic-definition tests: one compares the definition, the other walks base types.</summary>
public static class GenericTests
{
    public static bool IsGenericOf(this Type type, Type definition) => type.IsGenericType && type.GetGenericTypeDefinition() == definition;

    public static bool DerivesFromGeneric(this Type type, Type definition)
    {
        for (Type? t = type; t is not null; t = t.BaseType)
            if (t.IsGenericType && t.GetGenericTypeDefinition() == definition)
                return true;
        return false;
    }
}
