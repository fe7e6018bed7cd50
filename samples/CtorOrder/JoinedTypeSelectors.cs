using System.Reflection;

namespace CtorOrderSample;

/// <summary>
/// Issue 41, category 4: a type the code names on each of two paths ("c ? typeof(A) : typeof(B)"). When each has one
/// constructor the pick cannot depend on the order; when one has two, it is a hazard the code names.
/// </summary>
public static class JoinedTypeSelectors
{
    public static ConstructorInfo OfEitherSingle(bool fault) =>
        (fault ? typeof(CallerTypeSelectors.FaultRegistration<int>) : typeof(CallerTypeSelectors.PlainRegistration<int>)).GetConstructors()[0];

    public static ConstructorInfo OfEitherWithTwo(bool two) =>
        (two ? typeof(CallerTypeSelectors.TwoConstructors) : typeof(CallerTypeSelectors.PlainRegistration<int>)).GetConstructors()[0];
}
