using System.Reflection;

namespace CtorOrderSample;

/// <summary>
/// Issue 41, category 4 through callers (the shape of MassTransit's state machine registrations): a private helper picks
/// from the constructors of the Type its callers pass. Every caller passes one of the sample's own generic types, each
/// declaring one constructor, so the helper cannot depend on the order. The controls below it are flagged: a caller that
/// passes a type with two constructors, a helper whose address is taken (a delegate may pass it anything) and one an
/// expression tree calls.
/// </summary>
public static class CallerTypeSelectors
{
    public static object? Register(bool fault, Type message, object payload)
    {
        Type registration = fault
            ? typeof(FaultRegistration<>).MakeGenericType(message)
            : typeof(PlainRegistration<>).MakeGenericType(message);
        return Create(registration)?.Invoke([payload]);
    }

    private static ConstructorInfo? Create(Type registration) => registration.GetConstructors().FirstOrDefault(c => c.GetParameters().Length == 1);

    public static ConstructorInfo ForOneOrTwo(bool two) => CreateFromEither(two ? typeof(TwoConstructors) : typeof(PlainRegistration<int>));

    private static ConstructorInfo CreateFromEither(Type type) => type.GetConstructors()[0];

    public static ConstructorInfo Direct() => CreateThroughDelegate(typeof(PlainRegistration<int>));

    public static Func<Type, ConstructorInfo> AsDelegate() => CreateThroughDelegate;

    private static ConstructorInfo CreateThroughDelegate(Type type) => type.GetConstructors()[0];

    public static ConstructorInfo DirectToo() => CreateInExpressionTree(typeof(PlainRegistration<int>));

    /// <summary>An expression tree calls it through its handle (ldtoken): what it is passed there is anyone's.</summary>
    public static System.Linq.Expressions.Expression<Func<Type, ConstructorInfo>> AsExpressionTree() => t => CreateInExpressionTree(t);

    private static ConstructorInfo CreateInExpressionTree(Type type) => type.GetConstructors()[0];

    public sealed class PlainRegistration<T>(object payload)
    {
        public object Payload { get; } = payload;
    }

    public sealed class FaultRegistration<T>(object payload)
    {
        public object Payload { get; } = payload;
    }

    public sealed class TwoConstructors
    {
        public TwoConstructors(int n) => N = n;

        public TwoConstructors(string s) => N = s.Length;

        public int N { get; }
    }
}
