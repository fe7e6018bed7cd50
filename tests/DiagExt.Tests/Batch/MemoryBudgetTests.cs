using DiagExt.Core;
using DiagExt.Cli.Batch;
using DiagExt.Core.Targets;
using DiagExt.Core.Targets.Sources;

namespace DiagExt.Tests.Batch;

[TestFixture]
public class MemoryBudgetTests
{
    private const long Mb = 1024 * 1024;

    [Test]
    public void A_dump_waits_until_its_estimate_fits_but_one_larger_than_the_budget_runs_alone()
    {
        var budget = new MemoryBudget(500 * Mb);
        long big = MemoryBudget.Estimate(new DumpCandidate(new DumpSource("big.core"), 2000 * Mb), Limits.Default);
        long small = MemoryBudget.Estimate(new DumpCandidate(new DumpSource("small.core"), 100 * Mb), Limits.Default);

        Assert.That(big, Is.GreaterThan(budget.Total));
        Assert.That(budget.TryReserve(small, nothingRunning: true), Is.True);
        Assert.That(budget.TryReserve(big, nothingRunning: false), Is.False, "does not fit beside the small one");
        budget.Release(small);
        Assert.That(budget.TryReserve(big, nothingRunning: true), Is.True, "alone it runs anyway");
        Assert.That(budget.TryReserve(small, nothingRunning: false), Is.False);
    }

    [Test]
    public void A_packed_dump_unpacked_in_memory_counts_its_whole_size()
    {
        long plain = MemoryBudget.Estimate(new DumpCandidate(new DumpSource("a.core"), 400 * Mb), Limits.Default);
        long packed = MemoryBudget.Estimate(new DumpCandidate(new DumpSource("a.core.gz", DumpContainer.Gzip), 400 * Mb), Limits.Default);
        long packedLarge = MemoryBudget.Estimate(new DumpCandidate(new DumpSource("b.core.gz", DumpContainer.Gzip), 4000 * Mb), Limits.Default);
        Assert.That(packed - plain, Is.EqualTo(400 * Mb));
        Assert.That(packedLarge, Is.EqualTo(MemoryBudget.BaseBytes + 1000 * Mb), "too large for memory: unpacked to a temp file");
    }
}
