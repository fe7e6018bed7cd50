using DiagExt.Core.Heap;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.CtorOrder;

/// <summary>The heap objects ctororder wants: each RuntimeType's reflection cache (one per type reflection has looked at).</summary>
internal sealed class ReflectionCacheInterest : IHeapInterest
{
    public const string CacheTypeName = "System.RuntimeType+RuntimeTypeCache";

    public bool Wants(ClrType type) => type.Name == CacheTypeName;
}
