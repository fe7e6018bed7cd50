namespace DiagExt.Core.Detectors.DictCycle;

/// <summary>The words DiagExt uses for defects and for what they do to callers on each runtime generation.</summary>
internal static class DictCycleVerdict
{
    public static string AdviceFor(string typeName) =>
        "Concurrent writers corrupted this collection. " +
        (typeName.StartsWith("System.Collections.Generic.HashSet", StringComparison.Ordinal)
            ? "Use ConcurrentDictionary<T, byte> as a set (or a lock around every access, reads included); "
            : "Use ConcurrentDictionary (or a lock around every access, reads included); ") +
        "a corrupt instance cannot be repaired in place: restart the process after fixing the code.";

    public static string KindName(DefectKind kind) => kind switch
    {
        DefectKind.SelfCycle => "self-cycle",
        DefectKind.Cycle => "cycle",
        DefectKind.NextOutOfRange => "next-out-of-range",
        DefectKind.BucketOutOfRange => "bucket-out-of-range",
        DefectKind.CrossLinked => "cross-linked",
        DefectKind.ChainReachesFreeEntry => "chain-reaches-free-entry",
        DefectKind.WrongBucket => "wrong-bucket",
        DefectKind.DuplicateKey => "duplicate-key",
        DefectKind.OrphanedEntry => "orphaned-entry",
        DefectKind.PhantomEntry => "phantom-entry",
        DefectKind.CorruptFreeList => "corrupt-free-list",
        DefectKind.FreeCountMismatch => "free-count-mismatch",
        DefectKind.CountMismatch => "count-mismatch",
        DefectKind.CountOutOfRange => "count-out-of-range",
        DefectKind.LengthMismatch => "length-mismatch",
        _ => kind.ToString(),
    };

    /// <summary>
    /// Every defect class with its entries, for a title: "2 self-cycles (entries 5, 7), a cycle (6 -> 3 -> 6),
    /// orphaned entries 3, 8, count-mismatch". Long lists are cut; the evidence lines have them whole.
    /// </summary>
    public static string Describe(IReadOnlyList<HashTableDefect> defects)
    {
        var parts = new List<string>();
        // Loops first: they are what hangs or throws, and what the summary leads with.
        foreach (var group in defects.GroupBy(d => d.Kind).OrderBy(g => g.Key is DefectKind.SelfCycle or DefectKind.Cycle ? 0 : 1))
        {
            var list = group.ToList();
            parts.Add(group.Key switch
            {
                DefectKind.SelfCycle => list.Count == 1
                    ? $"self-cycle at entries[{list[0].Indices.FirstOrDefault()}]"
                    : $"{list.Count} self-cycles (entries {Cut(list.Select(d => d.Indices.FirstOrDefault().ToString()))})",
                DefectKind.Cycle => $"{(list.Count == 1 ? "a cycle" : $"{list.Count} cycles")} ({Cut(list.Select(d => string.Join(" -> ", d.Indices.Take(6).Append(d.Indices.FirstOrDefault()))), "; ")})",
                _ => list.SelectMany(d => d.Indices).Distinct().ToList() is { Count: > 0 } indices
                    ? $"{KindName(group.Key)} (entries {Cut(indices.Select(i => i.ToString()))})"
                    : KindName(group.Key),
            });
        }
        return string.Join(", ", parts);
    }

    private static string Cut(IEnumerable<string> items, string separator = ", ")
    {
        var list = items.Take(7).ToList();
        return list.Count > 6 ? string.Join(separator, list.Take(6)) + separator + "..." : string.Join(separator, list);
    }

    private const string InvalidOperation = "InvalidOperationException";

    /// <summary>
    /// What callers of the table get, for the finding's verdict: the exceptions the heap shows it threw (<paramref name="thrown"/>,
    /// the census of its exceptions, most frequent first), else what <paramref name="main"/> makes lookups do on this layout.
    /// A loop makes lookups throw InvalidOperationException on .NET Core 2.1+, but a table broken in other ways as well
    /// throws what its other defects cause (an insert past the entries throws IndexOutOfRangeException): the census names both.
    /// </summary>
    public static string Verdict(HashTableDefect main, HashTableLayout layout, IReadOnlyList<ExceptionCount> thrown)
    {
        string predicted = main.IsCycle
            ? (layout.LookupsThrowOnCycle ? $"lookups throw {InvalidOperation}" : "lookups never return")
            : Consequence(main, layout, string.Join(", ", main.Buckets));
        var types = thrown.GroupBy(t => t.Type).OrderByDescending(g => g.Sum(t => t.Count)).ThenBy(g => g.Key, StringComparer.Ordinal).Select(g => g.Key).ToList();
        if (types.Count == 0 || (main.IsCycle && layout.LookupsThrowOnCycle && types is [InvalidOperation]))
            return predicted;
        string threw = $"calls on it throw {string.Join(" and ", types)}";
        return main.IsCycle && !layout.LookupsThrowOnCycle ? $"{predicted}; {threw}" : threw;
    }

    /// <summary>What a lookup whose chain runs into <paramref name="defect"/> does on this layout.</summary>
    public static string Consequence(HashTableDefect defect, HashTableLayout layout, string buckets)
    {
        if (defect.IsCycle)
            return layout.LookupsThrowOnCycle
                ? $"lookups hashing to bucket {buckets} throw InvalidOperationException (\"concurrent operations not supported\")"
                : $"lookups hashing to bucket {buckets} never return (the thread spins at 100% CPU)";
        return defect.Kind switch
        {
            DefectKind.NextOutOfRange => $"lookups hashing to bucket {buckets} leave the used entries (IndexOutOfRangeException or a wrong miss)",
            DefectKind.BucketOutOfRange => $"lookups hashing to bucket {buckets} start outside the used entries",
            DefectKind.OrphanedEntry => "these keys are lost: lookups miss them and Add inserts duplicates",
            DefectKind.DuplicateKey => "Count is one too high per duplicate; enumeration yields the key twice and Remove leaves a copy behind",
            DefectKind.PhantomEntry => "count includes entries that were never written: enumeration yields default keys",
            DefectKind.WrongBucket => "lookups for these keys miss them",
            DefectKind.CrossLinked => "two chains share entries: lookups can return another bucket's entry, and Remove can cut both chains",
            DefectKind.ChainReachesFreeEntry => "a chain runs into a removed entry and continues along the free list",
            DefectKind.CorruptFreeList or DefectKind.FreeCountMismatch => "the next Add can overwrite a live entry or link a loop",
            DefectKind.CountMismatch or DefectKind.CountOutOfRange => "Count and enumeration disagree with the lookup structure",
            DefectKind.LengthMismatch => "buckets and entries disagree in size",
            _ => "",
        };
    }
}
