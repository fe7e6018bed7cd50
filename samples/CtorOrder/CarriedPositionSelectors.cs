using System.Reflection;

namespace CtorOrderSample;

/// <summary>
/// Issue 41, the order carried by a position (the shape of System.Composition's GetConstructorInfoFromGenericType): the
/// constructor marked on a generic definition is found by its index there, and the constructed type's constructor at the
/// same index is taken. Each type's list keeps its own order, which reflection does not promise to share, so
/// <see cref="MarkedOfConstructed"/> is flagged. Not flagged: the same type's list read twice at one index (<see cref="SameInBoth"/>).
/// </summary>
public static class CarriedPositionSelectors
{
    public static ConstructorInfo? MarkedOfConstructed(Type constructed)
    {
        TypeInfo definition = constructed.GetGenericTypeDefinition().GetTypeInfo();
        int count = definition.DeclaredConstructors.Count();
        ConstructorInfo? found = null;
        for (int i = 0; i < count; i++)
        {
            if (definition.DeclaredConstructors.ElementAt(i).IsDefined(typeof(ObsoleteAttribute), false))
                found = constructed.GetTypeInfo().DeclaredConstructors.ElementAt(i);
        }
        return found;
    }

    public static int SameInBoth(Type type)
    {
        ConstructorInfo[] constructors = type.GetConstructors();
        int same = 0;
        for (int i = 0; i < constructors.Length; i++)
        {
            if (constructors[i] == type.GetConstructors()[i])
                same++;
        }
        return same;
    }
}
