using DiagExt.Core.Detectors.DictCycle;
using DiagExt.Core.Heap;
using DiagExt.Core.Targets;
using DiagExt.Tests.Infrastructure;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Tests.Heap;

/// <summary>
/// The census reads exception stack traces itself, one DAC lookup per method (ExceptionStackTraces): on the
/// DictCycle sample's dump (thousands of exceptions thrown by its corrupt table) every trace
/// must be the one ClrMD's own enumerator gives, frame for frame, with far fewer lookups than frames.
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class ExceptionStackTracesTests
{
    [Test]
    public void Every_trace_is_the_one_ClrMDs_enumerator_gives()
    {
        string dump = DumpMaker.DumpOfSample("DictCycle", "dictcycle-dictionary.core");
        using Target target = TargetOpener.OpenDump(dump);
        ClrHeap heap = target.Runtime!.Heap;
        IHeapInterest interest = new DictCycleDetector().HeapInterest;
        List<ClrException> exceptions = HeapIndex.Build(heap, [interest], default, target.FileMemory).ObjectsFor(interest)
            .Where(DictCycleInterest.IsException).Take(2_000).Select(o => o.AsException()).OfType<ClrException>().ToList();
        Assert.That(exceptions, Has.Count.GreaterThan(20), "the sample's corrupt table throws steadily (how many survive to the dump depends on the last GC)");

        var reader = new ExceptionStackTraces(target);
        int frames = 0;
        foreach (ClrException exception in exceptions)
        {
            IReadOnlyList<ManagedFrame> expected = ExceptionStackTraces.ClrMdFrames(exception, 16);
            Assert.That(reader.Read(exception, 16), Is.EqualTo(expected), $"exception at 0x{exception.Address:x}");
            frames += expected.Count;
        }
        Assert.That(frames, Is.GreaterThan(exceptions.Count), "thrown exceptions have frames");
        Assert.That(reader.MethodsResolved, Is.LessThan(frames / 10), "each method is resolved once, not once per frame");
    }
}
