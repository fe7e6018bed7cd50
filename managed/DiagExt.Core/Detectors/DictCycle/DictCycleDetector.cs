using DiagExt.Core.Analysis;
using DiagExt.Core.Heap;
using DiagExt.Core.Reports;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.DictCycle;

/// <summary>
/// Heap-wide check of every Dictionary&lt;,&gt; and HashSet&lt;&gt;: classifies each instance's chains and reports
/// the corrupt ones with the threads inside them.
/// </summary>
public sealed class DictCycleDetector : IDetector
{
    public const string CommandName = "dictcycle";

    private readonly DictCycleInterest _interest = new();

    public string Name => CommandName;

    public string Description => "Dictionary/HashSet corrupted by concurrent writers (looping chains, lost entries) and the threads in it";

    public string Explanation =>
        "Walks every Dictionary<,> and HashSet<> on the heap (any instantiation, every runtime layout) and classifies its chains: " +
        "self-cycles (entries[i].next == i), longer cycles, indices out of range, joined chains, lost (orphaned) and never-written entries, " +
        "a corrupt free list and count mismatches. Each corrupt instance is reported with its bad indices, the buckets whose lookups " +
        "run into them, the static field that holds it, and the threads inside its methods with their CPU time.";

    public DetectorNeeds Needs => DetectorNeeds.ManagedRuntime;

    public IHeapInterest HeapInterest => _interest;

    public FindingContract Contract { get; } = new(CommandName, typeof(DictCycleFinding), DictCycleJson.Default);

    public IReadOnlyList<Finding> Analyze(AnalysisContext context)
    {
        var exceptionObjects = new List<ClrObject>();
        IEnumerable<ClrObject> tables = context.Heap.Stream(_interest, context.Cancellation).Where(obj =>
        {
            if (!DictCycleInterest.IsException(obj))
                return true;
            exceptionObjects.Add(obj);
            return false;
        });
        IReadOnlyList<CorruptHashTable> corrupt = HashTableScan.FindCorrupt(context, tables);
        if (corrupt.Count == 0)
            return [];

        ClrRuntime runtime = context.Target.Runtime!;
        IReadOnlyDictionary<ulong, string> holders = StaticReferenceFinder.FindPaths(runtime, corrupt.Select(c => c.Instance.Address).ToHashSet(), context.Cancellation);
        IReadOnlyList<CollectionException> exceptions = CollectionExceptions.Find(context.Target, exceptionObjects, context.Cancellation);
        if (exceptionObjects.Count > CollectionExceptions.MaxExamined)
            context.Note($"{exceptionObjects.Count:N0} InvalidOperationException/IndexOutOfRangeException objects on the heap: the first {CollectionExceptions.MaxExamined:N0} were examined");

        var findings = new List<Finding>();
        foreach (var (typeName, instance, diagnosis) in corrupt)
        {
            var subject = new HashTableThreadFinder.Subject(instance, typeName, corrupt.Count(c => c.TypeName == typeName) == 1, corrupt.Count == 1);
            HashTableThreadFinder.Result threads = HashTableThreadFinder.Find(context.Target, subject, exceptions);
            foreach (string line in threads.SetAside)
                context.SetAside($"0x{instance.Address:x}: {line}");
            IReadOnlyList<HashTableDefect> defects = threads.InResize.Count > 0
                ? diagnosis.Defects.Where(d => d.IsCycle).ToList() // mid-Resize the arrays legitimately disagree
                : diagnosis.Defects;
            if (defects.Count == 0)
                continue;
            IReadOnlyList<ExceptionCount> thrown = ExceptionCount.Of(exceptions, subject, exceptionObjects.Count > CollectionExceptions.MaxExamined);
            IReadOnlyList<EntryKey> keys = EntryContents.Read(runtime.Heap, instance.EntriesArray, KeyedIndices(defects), MaxKeys);
            findings.Add(DictCycleFindingBuilder.Build(context.Target, typeName, instance, defects, holders.GetValueOrDefault(instance.Address), threads, thrown, keys, readDuringGc: !context.Heap.Walkable));
        }
        // Instances something still holds come first: they are the ones hurting the process now.
        return findings.OrderByDescending(f => ((DictCycleFinding)f).Holder is not null || f.Threads.Count > 0).ToList();
    }

    /// <summary>Most entries whose key and value a finding shows.</summary>
    private const int MaxKeys = 32;

    /// <summary>The entries a user wants to recognise: those of each loop, each lost entry and each duplicate.</summary>
    private static IEnumerable<int> KeyedIndices(IReadOnlyList<HashTableDefect> defects) =>
        defects.Where(d => d.IsCycle || d.Kind is DefectKind.OrphanedEntry or DefectKind.DuplicateKey).SelectMany(d => d.Indices.Take(8));
}
