using System.Text.Json;
using DiagExt.Core.Targets;
using DiagExt.Tests.Infrastructure;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Tests.Hostile;

/// <summary>
/// The DictCycle sample's core with its corrupt Dictionary&lt;string, int&gt; made to lie: arrays that point into each
/// other, at the dictionary itself or outside memory, absurd lengths and counts, every entry its own successor, a
/// healthy instance of the same type whose entries are not an Entry[]. diagext runs as its own process (a fault in
/// the DAC would end the test host) and must answer with findings or one line; the real corruption must still be found.
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class HostileDictionaryCoreTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromMinutes(3);

    public sealed record Layout(ulong Dictionary, ulong Buckets, ulong Entries, int EntriesLength, int EntrySize, int NextOffset,
        ulong BucketsField, ulong EntriesField, ulong CountField, ulong FreeListField);

    private static string _core = "";
    private static Layout _layout = null!;

    [OneTimeSetUp]
    public void FindTheDictionary()
    {
        _core = DumpMaker.DumpOfSample("DictCycle", "dictcycle-dictionary.core");
        // Earlier, no longer referenced dictionaries of the sample can be corrupt too: they have no holder.
        JsonElement finding = Diagext.Run("dictcycle", _core, "--json").Findings.Single(f => f.TryGetProperty("holder", out JsonElement h) && h.GetString()!.EndsWith("DictionaryTarget.Dict"));
        ulong address = Convert.ToUInt64(finding.GetProperty("address").GetString(), 16);

        using Target target = TargetOpener.OpenDump(_core);
        ClrHeap heap = target.Runtime!.Heap;
        ClrObject dict = heap.GetObject(address);
        ClrType type = dict.Type!;
        ulong Field(ClrObject o, string name) => o.Type!.GetFieldByName(name)!.GetAddress(o.Address);
        ClrObject entries = dict.ReadObjectField("_entries");
        int nextOffset = entries.Type!.ComponentType!.GetFieldByName("next")!.Offset;
        _layout = new Layout(address, dict.ReadObjectField("_buckets").Address, entries.Address, entries.AsArray().Length, entries.Type!.ComponentSize, nextOffset,
            Field(dict, "_buckets"), Field(dict, "_entries"), Field(dict, "_count"), Field(dict, "_freeList"));
        TestContext.Out.WriteLine($"dictionary 0x{address:x}: buckets 0x{_layout.Buckets:x}, entries 0x{_layout.Entries:x} [{_layout.EntriesLength} x {_layout.EntrySize}]");
    }

    private static IEnumerable<TestCaseData> Lies()
    {
        yield return Case("buckets point at the entries", (p, l) => p.WriteUInt64(l.BucketsField, l.Entries));
        yield return Case("entries point at the buckets", (p, l) => p.WriteUInt64(l.EntriesField, l.Buckets));
        yield return Case("entries point at the dictionary itself", (p, l) => p.WriteUInt64(l.EntriesField, l.Dictionary));
        yield return Case("buckets point outside memory", (p, l) => p.WriteUInt64(l.BucketsField, 0x0000DEAD00000000));
        yield return Case("entries point outside memory", (p, l) => p.WriteUInt64(l.EntriesField, 0xFFFFFFFFFFFFFFF0));
        yield return Case("entry array claims 0x7FFFFFFF elements", (p, l) => p.WriteInt32(l.Entries + 8, int.MaxValue));
        yield return Case("entry array claims 100 million elements", (p, l) => p.WriteInt32(l.Entries + 8, 100_000_000));
        yield return Case("bucket array claims -1 elements", (p, l) => p.WriteInt32(l.Buckets + 8, -1));
        yield return Case("every entry is its own successor", (p, l) =>
        {
            for (int i = 0; i < l.EntriesLength; i++)
                p.WriteInt32(l.Entries + 16 + (ulong)(i * l.EntrySize + l.NextOffset), i);
        });
        yield return Case("count and free list at the extremes", (p, l) =>
        {
            p.WriteInt32(l.CountField, int.MaxValue);
            p.WriteInt32(l.FreeListField, int.MinValue);
        });
    }

    private static TestCaseData Case(string name, Action<CorePatch, Layout> lie) =>
        new TestCaseData(name, lie).SetName($"Hostile dictionary: {name}");

    [TestCaseSource(nameof(Lies))]
    public void Answers_with_findings_or_one_line(string name, Action<CorePatch, Layout> lie)
    {
        using var patch = new CorePatch(_core, Path.Combine(Repo.WorkDirectory, "hostile", "hostile-dictionary.core"));
        lie(patch, _layout);
        (JsonElement[] findings, string? note) = Run(name, patch.Path);
        // Never silence: the lying instance is reported as corrupt, named as not classified and why, or (when its
        // array's length hides it from the heap walk) the damage that stopped the walk is named.
        string address = $"0x{_layout.Dictionary:x}", entries = $"0x{_layout.Entries:x}", buckets = $"0x{_layout.Buckets:x}";
        Assert.That(findings.Any(f => f.GetProperty("address").GetString() == address)
            || note?.Contains(address) == true || note?.Contains($"heap damaged: the object at {entries}") == true || note?.Contains($"heap damaged: the object at {buckets}") == true,
            Is.True, $"{address} is neither a finding nor named in the note: {note}");
    }

    /// <summary>
    /// DictShapes' corrupt core holds many Dictionary&lt;string, int&gt;: the first one the heap walk meets is given an
    /// entry array that is a string. The corrupt instances of the same type after it must still all be reported.
    /// </summary>
    [Test]
    public void A_lying_instance_does_not_hide_the_others_of_its_type()
    {
        string core = DumpMaker.DumpOfSampleWithOutput("DictShapes", "net10.0", "dictshapes-corrupt.core", "corrupt").Path;
        JsonElement[] before = [.. Diagext.Run("dictcycle", core, "--json").Findings];
        ulong firstInstance, entriesField, someString;
        using (Target target = TargetOpener.OpenDump(core))
        {
            ClrHeap heap = target.Runtime!.Heap;
            ClrObject first = heap.EnumerateObjects().First(o => o.Type?.Name == "System.Collections.Generic.Dictionary<System.String, System.Int32>" && !o.ReadObjectField("_entries").IsNull);
            firstInstance = first.Address;
            entriesField = first.Type!.GetFieldByName("_entries")!.GetAddress(first.Address);
            someString = heap.EnumerateObjects().First(o => o.Type?.IsString == true).Address;
        }
        using var patch = new CorePatch(core, Path.Combine(Repo.WorkDirectory, "hostile", "hostile-dictshapes.core"));
        patch.WriteUInt64(entriesField, someString);
        (JsonElement[] after, string? note) = Run($"the first Dictionary<string, int> (0x{firstInstance:x}) has a string for entries", patch.Path);
        Assert.That(note, Does.Contain($"0x{firstInstance:x}: its entries field points at a System.String"));
        string[] lost = [.. before.Select(f => f.GetProperty("address").GetString()!).Except(after.Select(f => f.GetProperty("address").GetString()!))];
        Assert.That(lost, Is.Empty, "corrupt instances no longer reported");
    }

    /// <returns>The findings and the detector's note (what it could not classify).</returns>
    private static (JsonElement[] Findings, string? Note) Run(string name, string core)
    {
        var watch = System.Diagnostics.Stopwatch.StartNew();
        ProcessRunner.Result result = CliContract.RunExecutable(name, Timeout, "dictcycle", core, "--json");
        TestContext.Out.WriteLine($"{name}: exit {result.ExitCode} in {watch.Elapsed.TotalSeconds:0.0}s {result.Stderr.Trim()}");
        if (result.ExitCode == 2)
            return ([], result.Stderr);
        JsonElement report = JsonDocument.Parse(result.Stdout).RootElement;
        JsonElement[] findings = [.. report.GetProperty("findings").EnumerateArray()];
        foreach (JsonElement f in findings)
            TestContext.Out.WriteLine($"  {f.GetProperty("address").GetString()} {f.GetProperty("kind").GetString()}: {f.GetProperty("title").GetString()}");
        string? note = report.GetProperty("detectors")[0].TryGetProperty("reason", out JsonElement r) ? r.GetString() : null;
        TestContext.Out.WriteLine($"  note: {note}");
        return (findings, note);
    }
}
