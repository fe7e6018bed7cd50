using System.Collections.Concurrent;
using DiagExt.Core.Analysis;
using DiagExt.Core.Heap;
using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.DictCycle;

/// <summary>A Dictionary/HashSet instance the classifier found defects in.</summary>
internal sealed record CorruptHashTable(string TypeName, HashTableInstance Instance, HashTableDiagnosis Diagnosis);

/// <summary>
/// Reads and classifies every Dictionary/HashSet as the heap pass finds it (while it walks on, when it runs on
/// its own thread), on as many threads as the target allows. Only the corrupt instances are kept: memory holds one
/// table image per thread at a time.
/// </summary>
internal static class HashTableScan
{
    public static IReadOnlyList<CorruptHashTable> FindCorrupt(AnalysisContext context, IEnumerable<ClrObject> tables)
    {
        Target target = context.Target;
        ClrHeap heap = target.Runtime!.Heap;
        // Keyed by the collection's type and its entry array's type: one instance whose entries field points at
        // something else (a string, garbage) must not decide the shape of every instance of its type.
        var shapes = new ConcurrentDictionary<(ulong Type, ulong EntryArray), HashTableShape?>();
        var corrupt = new List<CorruptHashTable>();
        if (ReadFloor.Asked)
            context.Note(ReadFloor.Note);
        var unreadable = new List<(ulong Address, string Problem)>();
        // Tables are classified on every core the target allows, each taking the next table as the heap pass finds
        // it: the largest table is one unit of work, and the others go on beside it (bench/RESULTS.md).
        WorkerPool.ForEach(tables, target.Workers, obj =>
        {
            var (found, problem) = Classify(target, heap, shapes, obj);
            lock (corrupt)
            {
                if (found is not null)
                    corrupt.Add(found);
                if (problem is not null)
                    unreadable.Add((obj.Address, problem));
            }
        }, context.Cancellation);
        corrupt.Sort((a, b) => a.Instance.Address.CompareTo(b.Instance.Address)); // the same report whatever thread finished first
        unreadable.Sort((a, b) => a.Address.CompareTo(b.Address));
        if (unreadable.Count > 0)
            context.Note($"{unreadable.Count} Dictionary/HashSet instance{(unreadable.Count == 1 ? "" : "s")} not classified: {string.Join("; ", unreadable.Take(3).Select(u => u.Problem))}{(unreadable.Count > 3 ? "; ..." : "")}");
        return corrupt;
    }

    /// <summary>One table read and classified: the corrupt instance, or why it could not be classified, or neither.</summary>
    private static (CorruptHashTable? Corrupt, string? Unreadable) Classify(Target target, ClrHeap heap, ConcurrentDictionary<(ulong Type, ulong EntryArray), HashTableShape?> shapes, ClrObject obj)
    {
        ClrType type = obj.Type!;
        HashTableShape? shape;
        try
        {
            ClrObject entries = HashTableShape.EntriesField(type) is { } field ? obj.ReadObjectField(field) : default;
            if (entries.IsNull)
                return (null, null); // no entry array yet: never used
            if (entries.Type is not { } arrayType)
                return (null, $"{TypeNames.Short(CollectionTypeName(type))} at {(Address)obj.Address}: its entries field points at {(Address)entries.Address}, not an object in this dump");
            shape = shapes.GetOrAdd((type.MethodTable, arrayType.MethodTable), _ => HashTableShape.TryCreate(type, arrayType));
            if (shape is null)
                return (null, $"{TypeNames.Short(CollectionTypeName(type))} at {(Address)obj.Address}: its entries field points at a {arrayType.Name ?? "?"}");
        }
        catch (Exception e) when (CorruptType.Is(e))
        {
            return (null, $"{TypeNames.Short(CollectionTypeName(type))} at {(Address)obj.Address}: {CorruptType.Describe(e)}");
        }
        var (headerStatus, header, headerProblem) = HashTableReader.ReadHeader(target, obj.Address, shape, heap);
        if (headerStatus == HashTableReader.Status.Unreadable)
            return (null, $"{TypeNames.Short(CollectionTypeName(type))} at {(Address)obj.Address}: {headerProblem}");
        if (headerStatus != HashTableReader.Status.Read)
            return (null, null);
        if (ReadFloor.Asked)
        {
            ReadFloor.Read(target, header!, shape);
            return (null, null);
        }
        // A table of HashTableStream.From entries or more is first proven sound from the target's bytes as they stream past
        // (side by side in stretches only from a million entries); only when that fails is it copied.
        if (header!.EntriesLength >= HashTableStream.From
            && HashTableStream.ProvenHealthy(target, header, shape, heap, header.EntriesLength >= HashTableClassifier.ConcurrentFrom ? target.Workers : 1))
            return (null, null);
        var (status, instance, problem) = HashTableReader.Read(target, header, shape, heap);
        if (status == HashTableReader.Status.Unreadable)
            return (null, $"{TypeNames.Short(CollectionTypeName(type))} at {(Address)obj.Address}: {problem}");
        if (status != HashTableReader.Status.Read)
            return (null, null);
        HashTableDiagnosis diagnosis = HashTableClassifier.Classify(instance!.Image, concurrent: target.Workers > 1);
        return (diagnosis.IsHealthy ? null : new CorruptHashTable(CollectionTypeName(type), instance, diagnosis), null);
    }

    /// <summary>The Dictionary/HashSet type itself, for a user class deriving from one.</summary>
    private static string CollectionTypeName(ClrType type) => HashTableTypes.CollectionTypeOf(type) ?? type.Name ?? "?";
}
