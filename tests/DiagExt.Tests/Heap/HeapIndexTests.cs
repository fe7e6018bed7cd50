using DiagExt.Core.Detectors.DictCycle;
using DiagExt.Core.Heap;
using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Tests.Heap;

/// <summary>
/// The shared heap pass on a real dump: every object once, each interest asked once per type, and the same
/// result, in address order, whether one thread walks the heap or several share its segments.
/// </summary>
[TestFixture]
public class HeapIndexTests
{
    [Test]
    public void Segments_walked_in_parallel_give_what_one_thread_gives()
    {
        using Target target = TargetOpener.OpenDump(HeapTestDump.Path);
        ClrHeap heap = target.Runtime!.Heap;
        IHeapInterest tables = new DictCycleDetector().HeapInterest;
        var strings = new TypeNameInterest("System.String");

        HeapIndex one = HeapIndex.Build(heap, [tables, strings], 1, default);
        HeapIndex two = HeapIndex.Build(heap, [tables, strings], 2, default);

        Assert.That(two.Workers, Is.EqualTo(2));
        Assert.That(two.ObjectCount, Is.EqualTo(one.ObjectCount));
        Assert.That(one.ObjectCount, Is.EqualTo(heap.EnumerateObjects().LongCount()));
        foreach (IHeapInterest interest in new[] { tables, strings })
        {
            ulong[] sequential = one.ObjectsFor(interest).Select(o => o.Address).ToArray();
            Assert.That(sequential, Is.Not.Empty);
            Assert.That(two.ObjectsFor(interest).Select(o => o.Address), Is.EqualTo(sequential));
            Assert.That(sequential, Is.Ordered);
        }
        Assert.That(one.ObjectsFor(strings), Has.Count.EqualTo(heap.EnumerateObjects().Count(o => o.Type?.IsString == true)));
    }

    [Test]
    public void Each_interest_is_asked_once_per_type_not_per_object()
    {
        using Target target = TargetOpener.OpenDump(HeapTestDump.Path);
        ClrHeap heap = target.Runtime!.Heap;
        var counting = new TypeNameInterest("System.String");

        HeapIndex index = HeapIndex.Build(heap, [counting], 1, default);

        int types = heap.EnumerateObjects().Where(o => o.Type is not null).Select(o => o.Type!.MethodTable).Distinct().Count();
        Assert.That(counting.Asked, Is.EqualTo(types));
        Assert.That(index.ObjectCount, Is.GreaterThan(10 * types));
    }

    [Test]
    public void No_interest_means_no_walk()
    {
        using Target target = TargetOpener.OpenDump(HeapTestDump.Path);

        HeapIndex index = HeapIndex.Build(target.Runtime!.Heap, [], 2, default);

        Assert.That(index.ObjectCount, Is.Zero);
        Assert.That(index.Workers, Is.Zero);
    }

    /// <summary>Wants the objects of one type, by name, and counts how often it is asked.</summary>
    private sealed class TypeNameInterest(string name) : IHeapInterest
    {
        private int _asked;

        public int Asked => _asked;

        public bool Wants(ClrType type)
        {
            Interlocked.Increment(ref _asked);
            return type.Name == name;
        }
    }
}
