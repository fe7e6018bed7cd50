namespace DiagExt.Core.Detectors.CtorOrder;

/// <summary>The words ctororder findings share.</summary>
internal static class CtorOrderAdvice
{
    public const string Fix =
        "Choose the constructor by what it is, not where it is: GetConstructor(parameter types), an attribute on the constructor to use, " +
        "Single() with a clear error, or sort by MetadataToken (declaration order) before taking the first. " +
        "Type.GetConstructors documents no order, and the order changed with .NET Framework 4.8/NGen and between .NET Core 6 and 7.";

    public const string WhyWarning =
        "The order reflection returns is unspecified: it follows the runtime's MethodDesc layout, which differs between runtimes, NGen/ReadyToRun images and assemblies. " +
        "A dump of the running process shows whether a type it is applied to has a different first constructor.";
}
