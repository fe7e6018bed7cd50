namespace DiagExt.Core.Detectors.CtorOrder;

/// <summary>
/// What scanning one or more assemblies produced: call sites, one line per thing that could not be read, and how many
/// sites the code marks as reviewed (<see cref="SuppressionAttributes"/>), which are left out of <see cref="Sites"/>.
/// </summary>
public sealed record CallSiteScan(IReadOnlyList<CallSite> Sites, IReadOnlyList<string> Problems, int Assemblies, int MethodsAnalysed, int Suppressed = 0)
{
    public static CallSiteScan Empty { get; } = new([], [], 0, 0);

    /// <summary>The types of the picks not reported because the code names a type with at most one matching constructor, one entry per pick.</summary>
    public IReadOnlyList<string> LeftByCount { get; init; } = [];

    public CallSiteScan Add(CallSiteScan other) =>
        new([.. Sites, .. other.Sites], [.. Problems, .. other.Problems], Assemblies + other.Assemblies, MethodsAnalysed + other.MethodsAnalysed, Suppressed + other.Suppressed)
        {
            LeftByCount = [.. LeftByCount, .. other.LeftByCount],
        };
}
