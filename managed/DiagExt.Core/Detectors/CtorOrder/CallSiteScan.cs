namespace DiagExt.Core.Detectors.CtorOrder;

/// <summary>What scanning one or more assemblies produced: call sites, and one line per thing that could not be read.</summary>
public sealed record CallSiteScan(IReadOnlyList<CallSite> Sites, IReadOnlyList<string> Problems, int Assemblies, int MethodsAnalysed)
{
    public static CallSiteScan Empty { get; } = new([], [], 0, 0);

    public CallSiteScan Add(CallSiteScan other) =>
        new([.. Sites, .. other.Sites], [.. Problems, .. other.Problems], Assemblies + other.Assemblies, MethodsAnalysed + other.MethodsAnalysed);
}
