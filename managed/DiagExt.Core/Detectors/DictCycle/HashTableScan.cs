using DiagExt.Core.Analysis;
using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.DictCycle;

/// <summary>A Dictionary/HashSet instance the classifier found defects in.</summary>
internal sealed record CorruptHashTable(string TypeName, HashTableInstance Instance, HashTableDiagnosis Diagnosis);

/// <summary>
/// Reads and classifies every Dictionary/HashSet as the heap pass finds it (while it walks on, when it runs on
/// its own thread). Only the corrupt instances are kept: memory holds one table image at a time.
/// </summary>
internal static class HashTableScan
{
    public static IReadOnlyList<CorruptHashTable> FindCorrupt(AnalysisContext context, IEnumerable<ClrObject> tables)
    {
        Target target = context.Target;
        ClrHeap heap = target.Runtime!.Heap;
        var shapes = new Dictionary<ulong, HashTableShape?>();
        var corrupt = new List<CorruptHashTable>();
        foreach (ClrObject obj in tables)
        {
            context.Cancellation.ThrowIfCancellationRequested();
            ClrType type = obj.Type!;
            if (!shapes.TryGetValue(type.MethodTable, out HashTableShape? shape))
            {
                if (EntryArrayType(obj, type) is not { } arrayType)
                    continue; // no entry array yet (never used): decide on a later instance
                shapes[type.MethodTable] = shape = HashTableShape.TryCreate(type, arrayType);
            }
            if (shape is null)
                continue;
            var (status, instance, _) = HashTableReader.Read(target, obj.Address, shape, heap);
            if (status != HashTableReader.Status.Read)
                continue;
            HashTableDiagnosis diagnosis = HashTableClassifier.Classify(instance!.Image);
            if (!diagnosis.IsHealthy)
                corrupt.Add(new CorruptHashTable(CollectionTypeName(type), instance, diagnosis));
        }
        return corrupt;
    }

    private static ClrType? EntryArrayType(ClrObject obj, ClrType type)
    {
        if (HashTableShape.EntriesField(type) is not { } field)
            return null;
        ClrObject entries = obj.ReadObjectField(field);
        return entries.IsNull ? null : entries.Type;
    }

    /// <summary>The Dictionary/HashSet type itself, for a user class deriving from one.</summary>
    private static string CollectionTypeName(ClrType type)
    {
        ClrType? t = type;
        for (int depth = 0; t is not null && depth < 16; depth++, t = t.BaseType)
            if (HashTableTypes.IsCollectionTypeName(t.Name))
                return t.Name!;
        return type.Name ?? "?";
    }
}
