using DiagExt.Tests.Infrastructure;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Tests.RealPrograms;

/// <summary>
/// The Dictionary and HashSet instances in a dump, counted with ClrMD independently of diagext: "dictcycle found
/// nothing" only means something if the dump holds such instances, some of them large.
/// </summary>
public sealed record HeapCensus(HeapCensus.Kind Dictionaries, HeapCensus.Kind HashSets)
{
    /// <summary>How many instances of one kind, and the one with the most entries (_count).</summary>
    public sealed record Kind(int Instances, int LargestCount, string LargestType)
    {
        public Kind Add(string type, int count) => new(Instances + 1, Math.Max(count, LargestCount), count > LargestCount ? type : LargestType);

        public override string ToString() => $"{Instances:N0} (largest: {LargestCount:N0} entries, {LargestType})";
    }

    public static HeapCensus Of(string dump)
    {
        using DataTarget target = DataTarget.LoadDump(dump, new DataTargetOptions { SymbolPaths = [] });
        using ClrRuntime runtime = DumpRuntime.Open(target);
        var dictionaries = new Kind(0, 0, "");
        var hashSets = new Kind(0, 0, "");
        foreach (ClrObject obj in runtime.Heap.EnumerateObjects())
        {
            // The instances only, not their nested types (Entry[], KeyCollection, AlternateLookup...): those have no buckets.
            string? name = obj.Type?.Name;
            if (name is null || obj.Type!.GetFieldByName("_buckets") is null)
                continue;
            if (name.StartsWith("System.Collections.Generic.Dictionary<", StringComparison.Ordinal))
                dictionaries = dictionaries.Add(name, obj.ReadField<int>("_count"));
            else if (name.StartsWith("System.Collections.Generic.HashSet<", StringComparison.Ordinal))
                hashSets = hashSets.Add(name, obj.ReadField<int>("_count"));
        }
        return new HeapCensus(dictionaries, hashSets);
    }

    public override string ToString() => $"Dictionary: {Dictionaries}; HashSet: {HashSets}";
}
