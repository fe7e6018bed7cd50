// SuppressMessage is [Conditional("CODE_ANALYSIS")]: without this the compiler drops it and ctororder cannot see it.
#define CODE_ANALYSIS
using System.Diagnostics.CodeAnalysis;
using System.Reflection;

namespace CtorOrderSample;

/// <summary>Positional picks a team has reviewed and marked in the code: ctororder leaves them out and counts them in its note.</summary>
public static class ReviewedSelectors
{
#if NET5_0_OR_GREATER
    [UnconditionalSuppressMessage("DiagExt", "CtorOrder", Justification = "only called with types that have one constructor")]
#else
    [SuppressMessage("DiagExt", "CtorOrder", Justification = "only called with types that have one constructor")]
#endif
    public static ConstructorInfo FirstReviewed(Type type) => type.GetConstructors()[0];

    /// <summary>The lambda's pick belongs to the method it is written in, which carries the mark.</summary>
    [SuppressMessage("DiagExt", "CtorOrder:reviewed", Justification = "CODE_ANALYSIS is defined above, so the compiler keeps it")]
    public static Func<Type, ConstructorInfo> PickerReviewed() => t => t.GetConstructors().First();

    /// <summary>A mark on the type covers every method in it.</summary>
    [SuppressMessage("DiagExt", "CtorOrder", Justification = "reviewed")]
    public static class ReviewedType
    {
        public static ConstructorInfo? LastReviewed(Type type) => type.GetConstructors().LastOrDefault();
    }
}
