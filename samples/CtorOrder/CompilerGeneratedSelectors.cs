using System.Reflection;
using System.Runtime.CompilerServices;

namespace CtorOrderSample;

/// <summary>
/// Issue 41, category 4: a type the code tested to wear [CompilerGenerated] (an anonymous type, a closure, a state
/// machine) has one public constructor. The first method has the shape of LiteDB's BsonMapper: the type is unwrapped
/// from a Nullable&lt;T&gt; on one path, then tested with the library's own IsAnonymousType() and handed to a private helper
/// that takes [0]. The controls below are flagged: a helper one caller reaches without the test, and a pick on the edge
/// where the test failed.
/// </summary>
public static class CompilerGeneratedSelectors
{
    public static object? Deserialize(Type type, object?[] values)
    {
        if (TypeTests.IsNullable(type))
            type = TypeTests.UnderlyingOf(type);
        if (type.IsAnonymousType())
            return FromAnonymous(type, values);
        return null;
    }

    private static object FromAnonymous(Type type, object?[] values) => type.GetConstructors()[0].Invoke(values);

    /// <summary>Tested in place: a closure's or an anonymous type's one constructor.</summary>
    public static ConstructorInfo? GeneratedConstructor(Type type) =>
        type.IsDefined(typeof(CompilerGeneratedAttribute), false) ? type.GetConstructors()[0] : null;

    public static object? DeserializeEither(Type type, object?[] values) =>
        type.IsAnonymousType() ? FromTestedOrNot(type, values) : FromTestedOrNot(type, values);

    /// <summary>One caller hands it a type that failed the test: any type.</summary>
    private static object FromTestedOrNot(Type type, object?[] values) => type.GetConstructors()[0].Invoke(values);

    /// <summary>The pick is on the edge where the type is not compiler-generated.</summary>
    public static ConstructorInfo? UserConstructor(Type type) =>
        type.IsDefined(typeof(CompilerGeneratedAttribute), false) ? null : type.GetConstructors()[0];
}

/// <summary>A library's own type tests, as LiteDB writes them.</summary>
internal static class TypeTests
{
    public static bool IsAnonymousType(this Type type) =>
        type.FullName!.Contains("AnonymousType") && type.GetTypeInfo().GetCustomAttributes(typeof(CompilerGeneratedAttribute), false).Any();

    public static bool IsNullable(Type type) => type.IsGenericType && type.GetGenericTypeDefinition() == typeof(Nullable<>);

    public static Type UnderlyingOf(Type type) => Nullable.GetUnderlyingType(type)!;
}
