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

    /// <summary>The seed's CheckCtorOrder shape, on a list kept in a field of a closure.</summary>
    public static ConstructorInfo? FirstPublicLast(Type type)
    {
        var constructors = type.GetConstructors().Where(c => c.IsPublic).ToList();
        return constructors.Count > 0 ? constructors[constructors.Count > 1 ? 0 : 0] : null;
    }
}
