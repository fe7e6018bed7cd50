using DiagExt.Core.Heap;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Heap;

/// <summary>
/// Faulting a big array's pages in ahead (madvise) must change when they are touched, never what the array holds:
/// a zeroed array stays zero even where the GC hands back memory an earlier array filled.
/// </summary>
[TestFixture]
[Category(TestKind.Unit)]
public class BigArraysTests
{
    [Test]
    public void A_zeroed_array_is_zero_on_fresh_and_on_reused_memory()
    {
        const int Length = 3 << 20; // 24 MB of longs: past the threshold, whole pages inside
        for (int round = 0; round < 3; round++)
        {
            long[] dirty = BigArrays.Uninitialized<long>(Length);
            Array.Fill(dirty, -1L);
            Assert.That(dirty[Length / 2], Is.EqualTo(-1L));
            dirty = null!;
            GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: true);
            long[] zeroed = BigArrays.Zeroed<long>(Length);
            Assert.That(zeroed, Has.Length.EqualTo(Length));
            Assert.That(Array.IndexOf(zeroed, -1L), Is.EqualTo(-1), $"round {round}: a slot kept an earlier array's value");
            Assert.That(zeroed.AsSpan().ContainsAnyExcept(0L), Is.False);
        }
    }

    [Test]
    public void Small_and_empty_arrays_are_plain_arrays()
    {
        Assert.That(BigArrays.Zeroed<int>(0), Is.Empty);
        Assert.That(BigArrays.Zeroed<int>(1000), Has.Length.EqualTo(1000).And.All.EqualTo(0));
        Assert.That(BigArrays.Uninitialized<byte>(5), Has.Length.EqualTo(5));
    }
}
