using DiagExt.Core.Analysis;
using DiagExt.Core.Findings;
using DiagExt.Core.Heap;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.DictCycle;

/// <summary>
/// Heap-wide check of every Dictionary&lt;,&gt; and HashSet&lt;&gt;: classifies each instance's chains and reports
/// the corrupt ones with the threads inside them.
/// </summary>
public sealed class DictCycleDetector : IDetector
{
    public const string CommandName = "dictcycle";

    private readonly HashTableTypes _types = new();

    public string Name => CommandName;

    public string Description => "Dictionary/HashSet corrupted by concurrent writers (looping chains, lost entries) and the threads in it";

    public string Explanation =>
        "Walks every Dictionary<,> and HashSet<> on the heap (any instantiation, every runtime layout) and classifies its chains: " +
        "self-cycles (entries[i].next == i), longer cycles, indices out of range, joined chains, lost (orphaned) and never-written entries, " +
        "a corrupt free list and count mismatches. Each corrupt instance is reported with its bad indices, the buckets whose lookups " +
        "run into them, the static field that holds it, and the threads inside its methods with their CPU time.";

    public DetectorNeeds Needs => DetectorNeeds.ManagedRuntime;

    public IHeapInterest HeapInterest => _types;

    public IReadOnlyList<Finding> Analyze(AnalysisContext context)
    {
        IReadOnlyList<CorruptHashTable> corrupt = HashTableScan.FindCorrupt(context, context.Heap.Stream(_types, context.Cancellation));
        if (corrupt.Count == 0)
            return [];

        ClrRuntime runtime = context.Target.Runtime!;
        IReadOnlyDictionary<ulong, string> holders = StaticReferenceFinder.FindPaths(runtime, corrupt.Select(c => c.Instance.Address).ToHashSet(), context.Cancellation);

        var findings = new List<Finding>();
        foreach (var (typeName, instance, diagnosis) in corrupt)
        {
            bool onlyOfItsType = corrupt.Count(c => c.TypeName == typeName) == 1;
            HashTableThreadFinder.Result threads = HashTableThreadFinder.Find(context.Target, instance, typeName, onlyOfItsType);
            IReadOnlyList<HashTableDefect> defects = threads.InResize.Count > 0
                ? diagnosis.Defects.Where(d => d.IsCycle).ToList() // mid-Resize the arrays legitimately disagree
                : diagnosis.Defects;
            if (defects.Count == 0)
                continue;
            findings.Add(DictCycleFindingBuilder.Build(context.Target, typeName, instance, defects, holders.GetValueOrDefault(instance.Address), threads));
        }
        // Instances something still holds come first: they are the ones hurting the process now.
        return findings.OrderByDescending(f => ((DictCycleFinding)f).Holder is not null || f.Threads.Count > 0).ToList();
    }
}
