namespace DiagExt.Core.Detectors.CtorOrder;

/// <summary>
/// One loaded type's constructors in the order reflection returns them in the target process, next to
/// their declaration (metadata) order. Constructors are shown as signatures: ".ctor(String)".
/// </summary>
public sealed record TypeCtorOrder(
    string Type,
    string Module,
    Address MethodTable,
    IReadOnlyList<string> RuntimeOrder,
    IReadOnlyList<string> MetadataOrder,
    string OrderSource)
{
    /// <summary>Where the runtime order was read: the reflection cache, or MethodDesc chunks reconstructed.</summary>
    public const string FromReflectionCache = "reflection cache (RuntimeTypeCache.m_constructorInfoCache)";

    public const string FromMethodDescChunks = "MethodDesc chunk order (reconstructed)";

    public bool FirstDiffers => RuntimeOrder.Count > 0 && MetadataOrder.Count > 0 && RuntimeOrder[0] != MetadataOrder[0];

    public bool OrderDiffers => !RuntimeOrder.SequenceEqual(MetadataOrder);
}
