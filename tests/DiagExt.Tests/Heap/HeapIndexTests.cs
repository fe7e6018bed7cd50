using DiagExt.Tests.Infrastructure;
using DiagExt.Core.Detectors.DictCycle;
using DiagExt.Core.Heap;
using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Tests.Heap;

/// <summary>
/// The shared heap pass on a real dump: every object once, each interest asked once per type, and the same
/// objects, in address order, whether a reader streams them from a walk on its own thread or takes them after.
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class HeapIndexTests
{
    [Test]
    public void A_walk_on_its_own_thread_streams_what_a_walk_on_this_thread_finds()
    {
        using Target target = TargetOpener.OpenDump(HeapTestDump.Path);
        ClrHeap heap = target.Runtime!.Heap;
        IHeapInterest tables = new DictCycleDetector().HeapInterest;
        var strings = new TypeNameInterest("System.String");

        HeapIndex here = HeapIndex.Build(heap, [tables, strings], default);
        HeapIndex background = HeapIndex.Start(heap, [tables, strings], background: true, default);
        ulong[] streamed = background.Stream(tables, default).Select(o => o.Address).ToArray();

        Assert.That(background.ObjectCount, Is.EqualTo(here.ObjectCount));
        Assert.That(here.ObjectCount, Is.EqualTo(heap.EnumerateObjects().LongCount()));
        ulong[] expected = here.ObjectsFor(tables).Select(o => o.Address).ToArray();
        Assert.That(expected, Is.Not.Empty.And.Ordered);
        Assert.That(streamed, Is.EqualTo(expected));
        Assert.That(background.ObjectsFor(tables).Select(o => o.Address), Is.EqualTo(expected));
        Assert.That(background.ObjectsFor(strings).Select(o => o.Address), Is.EqualTo(here.ObjectsFor(strings).Select(o => o.Address)));
        Assert.That(here.ObjectsFor(strings), Has.Count.EqualTo(heap.EnumerateObjects().Count(o => o.Type?.IsString == true)));
    }

    [Test]
    public void Each_interest_is_asked_once_per_type_not_per_object()
    {
        using Target target = TargetOpener.OpenDump(HeapTestDump.Path);
        ClrHeap heap = target.Runtime!.Heap;
        var counting = new TypeNameInterest("System.String");

        HeapIndex index = HeapIndex.Build(heap, [counting], default);

        int types = heap.EnumerateObjects().Where(o => o.Type is not null).Select(o => o.Type!.MethodTable).Distinct().Count();
        Assert.That(counting.Asked, Is.EqualTo(types));
        Assert.That(index.ObjectCount, Is.GreaterThan(10 * types));
    }

    [Test]
    public void A_cancelled_walk_ends_its_readers_with_the_cancellation()
    {
        using Target target = TargetOpener.OpenDump(HeapTestDump.Path);
        IHeapInterest tables = new DictCycleDetector().HeapInterest;
        using var cancelled = new CancellationTokenSource();
        cancelled.Cancel();

        HeapIndex index = HeapIndex.Start(target.Runtime!.Heap, [tables], background: true, cancelled.Token);

        // A reader with no cancellation of its own still ends: the walk passes its own on.
        Assert.That(() => index.Stream(tables, default).ToList(), Throws.InstanceOf<OperationCanceledException>());
        Assert.That(() => index.ObjectsFor(tables), Throws.InstanceOf<OperationCanceledException>());
        index.WaitUntilStopped();
    }

    [Test]
    public void No_interest_means_no_walk()
    {
        using Target target = TargetOpener.OpenDump(HeapTestDump.Path);

        HeapIndex index = HeapIndex.Start(target.Runtime!.Heap, [], background: true, default);

        Assert.That(index.ObjectCount, Is.Zero);
    }

    /// <summary>Wants the objects of one type, by name, and counts how often it is asked.</summary>
    private sealed class TypeNameInterest(string name) : IHeapInterest
    {
        public int Asked { get; private set; }

        public bool Wants(ClrType type)
        {
            Asked++;
            return type.Name == name;
        }
    }
}
