using System.Collections.Concurrent;
using System.Reflection;

namespace CtorOrderSample;

/// <summary>
/// Enterprise Library ObjectBuilder's default policy, as the blog quotes it: the first constructor
/// reflection returns is the one used. Parameters are resolved by the container (here: strings fail).
/// </summary>
public sealed class DefaultCreationPolicy
{
    // Like ObjectBuilder's ConstructorPolicy list, the container remembers the constructor it chose. Each
    // ConstructorInfo keeps its type's reflection cache alive (reflection itself holds it only weakly).
    private readonly ConcurrentDictionary<Type, ConstructorInfo> _chosen = new();

    /// <summary>The application's container, alive as long as the process.</summary>
    public static DefaultCreationPolicy Shared { get; } = new();

    public ConstructorInfo? SelectConstructor(Type typeToBuild)
    {
        ConstructorInfo[] constructors = typeToBuild.GetConstructors();
        if (constructors.Length > 0)
        {
            return constructors[0];
        }
        return null;
    }

    public object Build(Type typeToBuild)
    {
        ConstructorInfo constructor = _chosen.GetOrAdd(typeToBuild, t => SelectConstructor(t) ?? throw new InvalidOperationException($"{t.Name} has no public constructor"));
        if (constructor.GetParameters().Length > 0)
            throw new InvalidOperationException($"cannot build {typeToBuild.Name}: the first constructor needs {constructor.GetParameters()[0].ParameterType.Name}");
        return constructor.Invoke(null);
    }
}
