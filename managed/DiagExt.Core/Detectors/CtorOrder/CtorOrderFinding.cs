using DiagExt.Core.Reports;

namespace DiagExt.Core.Detectors.CtorOrder;

/// <summary>
/// A ctororder finding: a call site that takes a constructor by position (warning), the same with a type
/// whose runtime order differs from its declaration order (hazard), or such a type alone (information).
/// </summary>
public sealed record CtorOrderFinding : Finding
{
    public const string KindCallSite = "positional-constructor-pick";
    public const string KindProven = "constructor-order-hazard";
    public const string KindOrderDiffers = "constructor-order-differs";

    public override string Detector => CtorOrderDetector.CommandName;

    public required FindingSeverity Level { get; init; }

    public override FindingSeverity Severity => Level;

    /// <summary>The code that depends on the order; null for an order difference alone.</summary>
    public CallSite? CallSite { get; init; }

    /// <summary>The types involved, with both orders; empty for a call site alone.</summary>
    public IReadOnlyList<TypeCtorOrder> Types { get; init; } = [];

    /// <summary>On the observed-orders finding: how the MethodDesc chunk reconstruction compared with reflection's cache.</summary>
    public ChunkOrderCheck? MethodDescChunkCheck { get; init; }
}

/// <summary>For how many types the reconstructed MethodDesc chunk order equals the order in reflection's cache.</summary>
public sealed record ChunkOrderCheck(int Agrees, int Differs, int NotPossible);
