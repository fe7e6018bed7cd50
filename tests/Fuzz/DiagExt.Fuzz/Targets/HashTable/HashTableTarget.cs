using DiagExt.Core.Detectors.DictCycle;
using DiagExt.Fuzz.Checks;
using DiagExt.Fuzz.Engine;

namespace DiagExt.Fuzz.Targets.HashTable;

/// <summary>
/// The Dictionary/HashSet classifier fed arbitrary bucket and entry arrays and fields (every layout, keys that compare
/// equal or not): it must end, stay within its arrays, and report only indices and buckets that exist.
/// </summary>
public sealed class HashTableTarget : IFuzzTarget
{
    public string Name => "hashtable";

    public string Covers => "Detectors/DictCycle/HashTableClassifier (chains, cycles, free list, counts, duplicate keys) over HashTableImage, every HashTableLayout";

    public IReadOnlyList<byte[]> Tokens { get; } = [[0xFF, 0xFF, 0xFF, 0xFF], [0xFD, 0xFF, 0xFF, 0xFF], [0, 0, 0, 0x80], [0xFF, 0xFF, 0xFF, 0x7F], [1, 0, 0, 0]];

    public IEnumerable<byte[]> BuiltInSeeds() => SimulatedTables.All();

    public IReadOnlyList<Field> Fields(ReadOnlySpan<byte> input)
    {
        var fields = new FieldList(input.Length);
        HashTableImage t = HashTableImageCodec.Decode(input);
        fields.Add(0, 1, FieldKind.Tag);
        fields.Add(1, 1, FieldKind.Tag, HashTableImageCodec.KeysEqualByHash);
        foreach (int at in new[] { 2, 6, 10, 14 })
            fields.Add(at, 4, FieldKind.Index, (ulong)t.EntriesLength);
        int start = HashTableImageCodec.HeaderSize;
        for (int b = 0; b < Math.Min(t.Buckets.Length, 512); b++)
            fields.Add(start + b * 4, 4, FieldKind.Index, (ulong)b); // a bucket naming the entry of its own number
        int entries = start + t.Buckets.Length * 4;
        for (int i = 0; i < Math.Min(t.EntriesLength, 1024); i++)
        {
            fields.Add(entries + i * 8, 4, FieldKind.Tag, (ulong)(long)t.HashCodes[Math.Max(0, i - 1)]); // the hash of the entry before: one chain
            fields.Add(entries + i * 8 + 4, 4, FieldKind.Index, (ulong)i);  // next == itself: the seed's self-cycle
        }
        return fields.ToList();
    }

    public bool IsDocumentedRejection(Exception e) => false; // corruption is a finding, never an exception

    public string Execute(ReadOnlyMemory<byte> input)
    {
        HashTableImage t = HashTableImageCodec.Decode(input.Span);
        HashTableDiagnosis diagnosis = HashTableClassifier.Classify(t);
        if (diagnosis.UsedEntries < 0 || diagnosis.UsedEntries > t.EntriesLength || diagnosis.ReachableLive < 0 || diagnosis.ReachableLive > diagnosis.UsedEntries)
            throw new PropertyViolation($"used or reachable entries out of range: used {diagnosis.UsedEntries}, reachable {diagnosis.ReachableLive} for {t.EntriesLength} entries");
        int cycles = 0;
        foreach (HashTableDefect d in diagnosis.Defects)
        {
            if (d.Indices.Any(i => i < 0 || i >= t.EntriesLength) || d.Buckets.Any(b => b < 0 || b >= t.Buckets.Length))
                throw new PropertyViolation($"{d.Kind} names an entry or bucket that does not exist: entries [{string.Join(",", d.Indices.Take(8))}] buckets [{string.Join(",", d.Buckets.Take(8))}]");
            if (d.Indices.Count > HashTableClassifier.MaxListed || d.Buckets.Count > HashTableClassifier.MaxListed)
                throw new PropertyViolation($"{d.Kind} lists more entries or buckets than the limit: over {HashTableClassifier.MaxListed}");
            if (UnsafeCharacters.FirstUnsafe(d.Detail) is not null)
                throw new PropertyViolation($"{d.Kind} detail holds control characters");
            cycles += d.IsCycle ? 1 : 0;
        }
        if (cycles > HashTableClassifier.MaxCycles)
            throw new PropertyViolation($"more cycles reported than the limit: {cycles} over {HashTableClassifier.MaxCycles}");
        // Coarse on purpose: the layout, the first defect and how many kinds; every combination of kinds would be noise.
        return new Signature().Add("layout", t.Layout.Name).Add("first", diagnosis.Defects.FirstOrDefault()?.Kind)
            .Add("kinds", diagnosis.Defects.Select(d => d.Kind).Distinct().Count()).Add("keys", t.KeysEqual is not null).ToString();
    }
}
