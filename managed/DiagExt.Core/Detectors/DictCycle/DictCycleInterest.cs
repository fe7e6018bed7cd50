using DiagExt.Core.Heap;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.DictCycle;

/// <summary>
/// What dictcycle wants from the shared heap pass: every Dictionary/HashSet, and the exception objects a corrupt one
/// throws (InvalidOperationException, IndexOutOfRangeException): when no thread is caught in the act, the exceptions
/// on the heap still say what the table did to its callers.
/// </summary>
internal sealed class DictCycleInterest : IHeapInterest
{
    public HashTableTypes Tables { get; } = new();

    public bool Wants(ClrType type) => CollectionExceptions.IsCandidateType(type.Name) || Tables.Wants(type);

    public static bool IsException(ClrObject obj) => CollectionExceptions.IsCandidateType(obj.Type?.Name);
}
