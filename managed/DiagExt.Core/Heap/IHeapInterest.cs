using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Heap;

/// <summary>
/// A detector's interest in heap objects, decided once per type (MethodTable), never per object.
/// Every interest of a run is served by one shared pass over the heap. The pass may run on a thread of its own,
/// beside the detectors: <see cref="Wants"/> must depend only on the type.
/// </summary>
public interface IHeapInterest
{
    bool Wants(ClrType type);
}
