using DiagExt.Core.Analysis;
using DiagExt.Core.Heap;
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
        // Keyed by the collection's type and its entry array's type: one instance whose entries field points at
        // something else (a string, garbage) must not decide the shape of every instance of its type.
        var shapes = new Dictionary<(ulong Type, ulong EntryArray), HashTableShape?>();
        var corrupt = new List<CorruptHashTable>();
        var unreadable = new List<string>();
        foreach (ClrObject obj in tables)
        {
            context.Cancellation.ThrowIfCancellationRequested();
            ClrType type = obj.Type!;
            HashTableShape? shape;
            try
            {
                ClrObject entries = HashTableShape.EntriesField(type) is { } field ? obj.ReadObjectField(field) : default;
                if (entries.IsNull)
                    continue; // no entry array yet: never used
                if (entries.Type is not { } arrayType)
                {
                    unreadable.Add($"{TypeNames.Short(CollectionTypeName(type))} at 0x{obj.Address:x}: its entries field points at 0x{entries.Address:x}, not an object in this dump");
                    continue;
                }
                if (!shapes.TryGetValue((type.MethodTable, arrayType.MethodTable), out shape))
                    shapes[(type.MethodTable, arrayType.MethodTable)] = shape = HashTableShape.TryCreate(type, arrayType);
                if (shape is null)
                {
                    unreadable.Add($"{TypeNames.Short(CollectionTypeName(type))} at 0x{obj.Address:x}: its entries field points at a {arrayType.Name ?? "?"}");
                    continue;
                }
            }
            catch (Exception e) when (CorruptType.Is(e))
            {
                unreadable.Add($"{TypeNames.Short(CollectionTypeName(type))} at 0x{obj.Address:x}: {CorruptType.Describe(e)}");
                continue;
            }
            var (status, instance, problem) = HashTableReader.Read(target, obj.Address, shape, heap);
            if (status == HashTableReader.Status.Unreadable)
                unreadable.Add($"{TypeNames.Short(CollectionTypeName(type))} at 0x{obj.Address:x}: {problem}");
            if (status != HashTableReader.Status.Read)
                continue;
            HashTableDiagnosis diagnosis = HashTableClassifier.Classify(instance!.Image);
            if (!diagnosis.IsHealthy)
                corrupt.Add(new CorruptHashTable(CollectionTypeName(type), instance, diagnosis));
        }
        if (unreadable.Count > 0)
            context.Note($"{unreadable.Count} Dictionary/HashSet instance{(unreadable.Count == 1 ? "" : "s")} not classified: {string.Join("; ", unreadable.Take(3))}{(unreadable.Count > 3 ? "; ..." : "")}");
        return corrupt;
    }

    /// <summary>The Dictionary/HashSet type itself, for a user class deriving from one.</summary>
    private static string CollectionTypeName(ClrType type) => HashTableTypes.CollectionTypeOf(type) ?? type.Name ?? "?";
}
