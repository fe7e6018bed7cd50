using DiagExt.Tests.Infrastructure;
using DiagExt.Core.Heap;
using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Tests.Heap;

/// <summary>The read window must return exactly what direct reads of the dump return, and fail where they fail.</summary>
[TestFixture]
[Category(TestKind.Dump)]
public class TargetReadWindowTests
{
    [Test]
    public void Window_reads_equal_direct_reads_of_a_real_dump()
    {
        using Target target = TargetOpener.OpenDump(HeapTestDump.Path);
        ulong[] objects = target.Runtime!.Heap.EnumerateObjects().Select(o => o.Address).Where((_, i) => i % 7 == 0).Take(5000).ToArray();
        var window = new TargetReadWindow(target);
        var viaWindow = new byte[24];
        var direct = new byte[24];

        // In address order (the intended use) and then backwards (every read refills the window).
        foreach (ulong address in objects.Concat(objects.Reverse()))
        {
            Assert.That(window.Read(address, viaWindow), Is.True, $"0x{address:x}");
            Assert.That(target.ReadMemory(address, direct), Is.EqualTo(direct.Length));
            Assert.That(viaWindow, Is.EqualTo(direct), $"0x{address:x}");
        }
    }

    [Test]
    public void Reads_outside_the_dump_fail_and_reads_larger_than_the_window_go_direct()
    {
        using Target target = TargetOpener.OpenDump(HeapTestDump.Path);
        var window = new TargetReadWindow(target);

        Assert.That(window.Read(0x10, new byte[8]), Is.False);

        ClrSegment segment = target.Runtime!.Heap.Segments.First(s => s.ObjectRange.Length > 256 * 1024);
        var big = new byte[200 * 1024];
        var direct = new byte[big.Length];
        Assert.That(window.Read(segment.Start, big), Is.True);
        Assert.That(target.ReadMemory(segment.Start, direct), Is.EqualTo(direct.Length));
        Assert.That(big, Is.EqualTo(direct));
    }
}
