namespace DiagExt.Core.Detectors.CtorOrder;

/// <summary>The words ctororder findings share.</summary>
internal static class CtorOrderAdvice
{
    /// <summary>Why and what to do, the same for every call site: text output prints it once per run.</summary>
    public const string Fix =
        "Choose the constructor by what it is, not where it is: GetConstructor(parameter types), an attribute on the constructor to use, " +
        "Single() with a clear error, or sort by MetadataToken (declaration order) before taking the first. " +
        "Why: Type.GetConstructors documents no order; it follows the runtime's MethodDesc layout, which changed with .NET Framework 4.8/NGen " +
        "and between .NET Core 6 and 7 and differs with ReadyToRun images. A dump of the running process shows whether a type it is applied to " +
        "has a different first constructor. A site reviewed as safe stays quiet listed in a baseline file, or marked [UnconditionalSuppressMessage(\"DiagExt\", \"CtorOrder\")].";
}
