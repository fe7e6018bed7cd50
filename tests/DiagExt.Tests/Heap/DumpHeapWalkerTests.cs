using DiagExt.Core.Heap;
using DiagExt.Core.Targets;
using DiagExt.Tests.Hostile;
using DiagExt.Tests.Infrastructure;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Tests.Heap;

/// <summary>
/// DiagExt's own heap walk (<see cref="DumpHeapWalker"/>, reading the dump file, or /proc/PID/mem of a stopped process)
/// against ClrMD's careful walk on the same real dumps and on a live sample: the same objects at the same addresses with the same MethodTables; and on a core patched to lie
/// (an object without a MethodTable, a string claiming 2 G chars) both end, report the same damage and see the same.
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class DumpHeapWalkerTests
{
    [Test]
    public void Finds_what_ClrMDs_careful_walk_finds_in_the_DictShapes_core() => AssertSameWalk(HeapTestDump.Path);

    [Test]
    public void Finds_what_ClrMDs_careful_walk_finds_in_the_DictCycle_core() => AssertSameWalk(DumpMaker.DumpOfSample("DictCycle", "dictcycle-dictionary.core"));

    [Test]
    public void Finds_what_ClrMDs_careful_walk_finds_in_a_stopped_live_process()
    {
        // Detached: this process ptraces it (SampleProcess says why a child would then outlive its Kill).
        using SampleProcess sample = SampleProcess.StartAndWaitReady(SampleBuilder.Build("DictCycle"), [], TimeSpan.FromMinutes(3), detached: true);
        using Target target = TargetOpener.Attach(sample.Pid);
        Assert.That(target.FileMemory, Is.Not.Null, "a stopped process's memory is read in bulk from /proc/PID/mem");
        AssertSameWalk(BothWalks(target));
    }

    [Test]
    public void An_object_without_a_MethodTable_hands_the_rest_of_its_segment_to_ClrMD()
    {
        (ulong victim, _) = PickVictim(HeapTestDump.Path);
        using var patch = new CorePatch(HeapTestDump.Path, Path.Combine(Repo.WorkDirectory, "hostile", "walker-no-methodtable.core"));
        patch.WriteUInt64(victim, 0);
        (Walk own, Walk clrmd) = BothWalks(patch.Path);
        Assert.That(own.Objects, Is.EqualTo(clrmd.Objects));
        Assert.That(own.Count, Is.EqualTo(clrmd.Count));
        Assert.That(own.Objects.Select(o => o.Address), Does.Not.Contain(victim));
    }

    [Test]
    public void A_string_claiming_2G_chars_ends_its_segment_as_damage()
    {
        (ulong victim, ulong stringMethodTable) = PickVictim(HeapTestDump.Path, strings: true);
        using var patch = new CorePatch(HeapTestDump.Path, Path.Combine(Repo.WorkDirectory, "hostile", "walker-long-string.core"));
        patch.WriteInt32(victim + 8, int.MaxValue);
        (Walk own, Walk clrmd) = BothWalks(patch.Path);
        Assert.That(own.Damage, Has.Some.StartsWith($"the object at 0x{victim:x} (System.String) claims"));
        Assert.That(own.Damage, Is.EqualTo(clrmd.Damage));
        Assert.That(own.Objects, Is.EqualTo(clrmd.Objects));
        Assert.That(own.Objects, Does.Contain((victim, stringMethodTable)));
    }

    private static void AssertSameWalk(string dump)
    {
        using Target target = TargetOpener.OpenDump(dump);
        AssertSameWalk(BothWalks(target));
    }

    private static void AssertSameWalk((Walk Own, Walk ClrMD) walks)
    {
        (Walk own, Walk clrmd) = walks;
        Assert.That(own.Count, Is.EqualTo(clrmd.Count));
        Assert.That(own.Objects, Is.EqualTo(clrmd.Objects));
        Assert.That(own.Damage, Is.Empty);
        // A sanity floor, not the dump's size: a DictCycle core that corrupted early holds some 8,000 objects.
        Assert.That(own.Objects, Has.Count.GreaterThan(1_000));
    }

    private sealed record Walk(long Count, List<(ulong Address, ulong MethodTable)> Objects, IReadOnlyList<string> Damage);

    /// <summary>The heap pass with every object wanted, once through the dump file and once through ClrMD alone.</summary>
    private static (Walk Own, Walk ClrMD) BothWalks(string dump)
    {
        using Target target = TargetOpener.OpenDump(dump);
        return BothWalks(target);
    }

    /// <summary>The heap pass with every object wanted, once through DiagExt's own reader of the target and once through ClrMD alone.</summary>
    private static (Walk Own, Walk ClrMD) BothWalks(Target target)
    {
        ClrHeap heap = target.Runtime!.Heap;
        Assert.That(target.FileMemory, Is.Not.Null);
        Walk Run(HeapIndex index, IHeapInterest all) =>
            new(index.ObjectCount, [.. index.ObjectsFor(all).Select(o => (o.Address, o.Type!.MethodTable))], [.. index.Damage.Select(d => d.ToString())]);
        var everything = new Everything();
        return (Run(HeapIndex.Build(heap, [everything], default, target.FileMemory), everything),
                Run(HeapIndex.Build(heap, [everything], default), everything));
    }

    /// <summary>An object in the middle of the largest segment (a string, if asked), with objects after it.</summary>
    private static (ulong Address, ulong MethodTable) PickVictim(string dump, bool strings = false)
    {
        using Target target = TargetOpener.OpenDump(dump);
        ClrHeap heap = target.Runtime!.Heap;
        ClrSegment segment = heap.Segments.Where(s => s.Kind is not (GCSegmentKind.Large or GCSegmentKind.Frozen or GCSegmentKind.Pinned)).MaxBy(s => s.ObjectRange.Length)!;
        ClrObject[] objects = [.. segment.EnumerateObjects(carefully: true).Where(o => o.Type is { IsFree: false } t && (!strings || t.IsString))];
        Assert.That(objects, Has.Length.GreaterThan(100));
        ClrObject victim = objects[objects.Length / 2];
        return (victim.Address, victim.Type!.MethodTable);
    }

    private sealed class Everything : IHeapInterest
    {
        public bool Wants(ClrType type) => true;
    }
}
