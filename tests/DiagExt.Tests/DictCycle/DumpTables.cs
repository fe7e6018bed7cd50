using DiagExt.Core.Detectors.DictCycle;
using DiagExt.Core.Heap;
using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Tests.DictCycle;

/// <summary>Every Dictionary/HashSet of an open dump whose entry array has a shape the reader knows, as the detector finds them.</summary>
internal static class DumpTables
{
    public static IEnumerable<(ClrObject Table, HashTableShape Shape)> Shaped(Target target)
    {
        ClrHeap heap = target.Runtime!.Heap;
        IHeapInterest interest = new DictCycleDetector().HeapInterest;
        foreach (ClrObject table in HeapIndex.Build(heap, [interest], default, target.FileMemory).ObjectsFor(interest))
        {
            if (HashTableShape.EntriesField(table.Type!) is { } field && table.ReadObjectField(field) is { IsNull: false, Type: { } arrayType }
                && HashTableShape.TryCreate(table.Type!, arrayType) is { } shape)
                yield return (table, shape);
        }
    }
}
