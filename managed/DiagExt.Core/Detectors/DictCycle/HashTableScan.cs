using DiagExt.Core.Analysis;
using DiagExt.Core.Parallelism;
using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.DictCycle;

/// <summary>A Dictionary/HashSet instance the classifier found defects in.</summary>
internal sealed record CorruptHashTable(string TypeName, HashTableInstance Instance, HashTableDiagnosis Diagnosis);

/// <summary>
/// Reads and classifies every Dictionary/HashSet the heap pass found. Types and headers are read first, on one
/// thread (they ask ClrMD about types); the arrays are then read and classified on the target's workers,
/// largest first. Only the corrupt instances are kept: memory holds at most one table image per worker.
/// </summary>
internal static class HashTableScan
{
    public static IReadOnlyList<CorruptHashTable> FindCorrupt(AnalysisContext context, IReadOnlyList<ClrObject> tables)
    {
        Target target = context.Target;
        ClrHeap heap = target.Runtime!.Heap;
        List<(ClrType Type, HashTableShape Shape, HashTableHeader Header)> work = ReadHeaders(context, tables);
        work.Sort((a, b) => b.Header.EntriesLength.CompareTo(a.Header.EntriesLength));

        var corrupt = new CorruptHashTable?[work.Count];
        int[] order = Enumerable.Range(0, work.Count).ToArray();
        WorkerPool.ForEach(order, target.Workers, i =>
        {
            var (type, shape, header) = work[i];
            var (status, instance, _) = HashTableReader.ReadArrays(target, header, shape, heap);
            if (status != HashTableReader.Status.Read)
                return;
            HashTableDiagnosis diagnosis = HashTableClassifier.Classify(instance!.Image);
            if (!diagnosis.IsHealthy)
                corrupt[i] = new CorruptHashTable(CollectionTypeName(type), instance, diagnosis);
        }, context.Cancellation);
        return corrupt.OfType<CorruptHashTable>().OrderBy(c => c.Instance.Address).ToList();
    }

    private static List<(ClrType, HashTableShape, HashTableHeader)> ReadHeaders(AnalysisContext context, IReadOnlyList<ClrObject> tables)
    {
        var shapes = new Dictionary<ulong, HashTableShape?>();
        var work = new List<(ClrType, HashTableShape, HashTableHeader)>();
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
            var (status, header, _) = HashTableReader.ReadHeader(context.Target, obj.Address, shape);
            if (status == HashTableReader.Status.Read)
                work.Add((type, shape, header!));
        }
        return work;
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
