using DiagExt.Tests.Infrastructure;
using DiagExt.Core.Detectors.DictCycle;

namespace DiagExt.Tests.DictCycle;

/// <summary>The classifier's division-free remainder must equal % for every value and every bucket count it can meet.</summary>
[TestFixture]
[Category(TestKind.Unit), Parallelizable(ParallelScope.Fixtures)]
public class FastModuloTests
{
    [Test]
    public void Equals_the_remainder_for_extremes_and_random_values()
    {
        var random = new Random(20261122);
        uint[] divisors = [1, 2, 3, 7, 17, 5_999_471, (1u << 28) - 1, 1u << 28, (uint)int.MaxValue];
        foreach (uint divisor in divisors.Concat(Enumerable.Range(0, 500).Select(_ => (uint)random.Next(1, int.MaxValue))))
        {
            var modulo = new FastModulo(divisor);
            uint[] values = [0, 1, divisor - 1, divisor, divisor + 1, int.MaxValue, 1u << 31, uint.MaxValue];
            foreach (uint value in values.Concat(Enumerable.Range(0, 200).Select(_ => (uint)random.NextInt64(0, 1L << 32))))
                Assert.That(modulo.Remainder(value), Is.EqualTo(value % divisor), $"{value} % {divisor}");
        }
    }
}
