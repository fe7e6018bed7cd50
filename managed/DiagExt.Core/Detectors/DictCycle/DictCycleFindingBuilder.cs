using DiagExt.Core.Reports;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Detectors.DictCycle;

/// <summary>Turns one classified corrupt instance into a finding: verdict, evidence lines, threads.</summary>
internal static class DictCycleFindingBuilder
{
    public static DictCycleFinding Build(
        Target target,
        string typeName,
        HashTableInstance instance,
        IReadOnlyList<HashTableDefect> defects,
        string? holder,
        HashTableThreadFinder.Result threads,
        IReadOnlyList<ExceptionCount> thrown,
        IReadOnlyList<EntryKey> keys,
        bool readDuringGc)
    {
        HashTableImage image = instance.Image;
        HashTableLayout layout = image.Layout;
        string shortType = TypeNames.Short(typeName);
        HashTableDefect main = defects.FirstOrDefault(d => d.IsCycle) ?? defects[0];

        var evidence = new List<Markup>();
        if (readDuringGc)
            evidence.Add(Markup.Text("the dump was taken during a garbage collection, which may have been moving this table: take the dump again; a table corrupt in both is corrupt"));
        evidence.AddRange(new List<Markup>
        {
            Markup.Line().Text($"instance: ").Object(instance.Address).Text($" {typeName} ({layout.Name} layout)"),
            Markup.Line().Text($"count {image.Count}")
                .Text(image.FreeCount is int fc ? $", freeCount {fc}" : "")
                .Text(image.LastIndex is int li ? $", lastIndex {li}" : "")
                .Text(", buckets ").Object(instance.BucketsArray).Text($" [{image.Buckets.Length}], entries ").Object(instance.EntriesArray).Text($" [{image.EntriesLength}]"),
            Markup.Text(holder is null ? "held by: no static field path found (look at the stack roots of the threads below)" : $"held by: static {holder}"),
        });
        foreach (HashTableDefect d in defects)
        {
            string buckets = d.Buckets.Count switch
            {
                0 => "",
                1 => $"; bucket {d.Buckets[0]} runs into it",
                _ => $"; buckets {string.Join(", ", d.Buckets)} run into it",
            };
            string consequence = DictCycleVerdict.Consequence(d, layout, string.Join(", ", d.Buckets));
            evidence.Add(Markup.Text($"{DictCycleVerdict.KindName(d.Kind)}: {d.Detail}{Indices(d)}{buckets}{(consequence.Length > 0 ? $" -> {consequence}" : "")}"));
        }
        if (threads.InResize.Count > 0)
            evidence.Add(Markup.Text($"note: thread(s) {string.Join(", ", threads.InResize.Select(t => $"0x{t:x}"))} are inside Resize: only cycles are reported, since other inconsistencies are normal mid-resize"));
        if (keys.Count > 0)
            evidence.Add(Markup.Text("keys: " + string.Join("; ", keys.Select(k => $"entries[{k.Index}] {k.Key}{(k.Value is null ? "" : $" = {k.Value}")}"))));
        foreach (ExceptionCount count in thrown)
            evidence.Add(Markup.Text($"exceptions on the heap: {count.Describe()}"));
        if (threads.Threads.Count == 0)
            evidence.Add(Markup.Text("threads: none runs in, throws from or holds this instance at the time of the dump" +
                (thrown.Count > 0 ? " (the exceptions above say what it did to its callers)" : "")));
        if (threads.Threads.Count == 0 && holder is null)
            evidence.Add(Markup.Text("note: no static field and no thread references it: it may be garbage awaiting collection, but it still proves unsynchronised writers"));

        string threadText = threads.Threads.Count switch
        {
            0 => thrown.Count > 0 ? $" {(thrown[0].AtLeast ? "At least " : "")}{thrown.Sum(t => t.Count):N0} exceptions it threw are on the heap." : "",
            1 => " 1 thread runs in, throws from or holds it.",
            int n => $" {n} threads run in, throw from or hold it.",
        };

        return new DictCycleFinding
        {
            Kind = DictCycleVerdict.KindName(main.Kind),
            Title = $"{(readDuringGc ? "Possibly corrupt (read during a GC)" : "Corrupt")} {shortType} at {(Address)instance.Address}: {DictCycleVerdict.Describe(defects)}",
            ReadDuringGc = readDuringGc,
            Summary = $"{main.Detail}; {DictCycleVerdict.Consequence(main, layout, string.Join(", ", main.Buckets))}.{threadText}".Replace("; .", ".", StringComparison.Ordinal),
            Threads = threads.Threads,
            Evidence = evidence,
            Advice = DictCycleVerdict.AdviceFor(typeName),
            Address = instance.Address,
            Type = typeName,
            Layout = layout.Name,
            Count = image.Count,
            FreeCount = image.FreeCount,
            BucketsLength = image.Buckets.Length,
            EntriesLength = image.EntriesLength,
            BucketsAddress = instance.BucketsArray,
            EntriesAddress = instance.EntriesArray,
            BadIndices = defects.SelectMany(d => d.Indices).Distinct().Order().ToList(),
            BadBuckets = defects.SelectMany(d => d.Buckets).Distinct().Order().ToList(),
            Defects = defects.Select(d => new DefectReport(DictCycleVerdict.KindName(d.Kind), d.Indices, d.Buckets, d.Detail)).ToList(),
            Holder = holder,
            Keys = keys,
            Exceptions = thrown,
            Verdict = DictCycleVerdict.Verdict(main, layout, thrown),
        };
    }

    private static string Indices(HashTableDefect d) =>
        d.IsCycle || d.Kind == DefectKind.NextOutOfRange || d.Indices.Count == 0 ? "" : $" (entries {string.Join(", ", d.Indices)})";
}
