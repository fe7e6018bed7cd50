using DiagExt.Core.Detectors.DictCycle;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.DictCycle;

/// <summary>The classifier's radix sort gives the library sort's order on the keys it is given: packed (hash code, index) longs.</summary>
[TestFixture]
[Category(TestKind.Unit), Parallelizable(ParallelScope.Fixtures)]
public class RadixSortTests
{
    [TestCase(0)]
    [TestCase(1)]
    [TestCase(511)]
    [TestCase(512)]
    [TestCase(513)]
    [TestCase(100_000)]
    public void Sorts_as_the_library_does(int count)
    {
        var random = new Random(count);
        foreach (Func<long> draw in new Func<long>[]
        {
            () => random.NextInt64(long.MinValue, long.MaxValue), // every byte varies, either sign
            () => ((long)random.Next(int.MinValue, int.MaxValue) << 32) | (uint)random.Next(0, 1 << 20), // the classifier's (hash, index)
            () => ((long)(random.Next(4) - 2) << 32) | (uint)random.Next(8), // few values: most bytes shared, many equal keys
        })
        {
            long[] keys = Enumerable.Range(0, count).Select(_ => draw()).ToArray();
            long[] expected = (long[])keys.Clone();
            Array.Sort(expected);
            RadixSort.Sort(keys);
            Assert.That(keys, Is.EqualTo(expected));
        }
    }

    [Test]
    public void Sorts_a_slice_and_leaves_the_rest()
    {
        long[] keys = Enumerable.Range(0, 2_000).Select(i => (long)((i * 7919) % 2_000) - 1_000).ToArray();
        long[] tail = keys[1_500..];
        RadixSort.Sort(keys.AsSpan(0, 1_500));
        Assert.That(keys[..1_500], Is.Ordered);
        Assert.That(keys[1_500..], Is.EqualTo(tail));
    }
}
