using DiagExt.Tests.Infrastructure;
using DiagExt.Core.Detectors.DictCycle;

namespace DiagExt.Tests.DictCycle;

/// <summary>
/// The layouts no runtime on this machine produces (.NET Framework, .NET Core 2.x) checked on hand-made
/// images with the semantics of their source (docs/design/internals.md, section 1). The layouts that do run
/// here are tested on real dumps (DictShapesTests, LegacyLayoutTests).
/// </summary>
[TestFixture]
[Category(TestKind.Unit), Parallelizable(ParallelScope.Fixtures)]
public class ClassifierLayoutTests
{
    // Framework: buckets 0-based (-1 empty), free entry hashCode -1, free next plain.
    // Keys 0..3 all in bucket 1 of 5: chain 3 -> 2 -> 1 -> 0.
    private static HashTableImage Framework(Action<int[], int[], int[]>? edit = null, int count = 4, int freeList = -1, int freeCount = 0)
    {
        int[] buckets = [-1, 3, -1, -1, -1];
        int[] hashes = [6, 11, 16, 21, 0];
        int[] nexts = [-1, 0, 1, 2, 0];
        edit?.Invoke(buckets, hashes, nexts);
        return new HashTableImage
        {
            Layout = HashTableLayout.FrameworkDictionary,
            Buckets = buckets,
            HashCodes = hashes,
            Nexts = nexts,
            Count = count,
            FreeList = freeList,
            FreeCount = freeCount,
        };
    }

    [Test]
    public void Framework_healthy_chain_and_free_list()
    {
        Assert.That(HashTableClassifier.Classify(Framework()).Defects, Is.Empty);
        // Entry 1 removed: chain 3 -> 2 -> 0, entry 1 on the free list (hashCode -1, next -1).
        HashTableImage removed = Framework((b, h, n) => { h[1] = -1; n[1] = -1; n[2] = 0; }, freeList: 1, freeCount: 1);
        Assert.That(HashTableClassifier.Classify(removed).Defects, Is.Empty);
    }

    [Test]
    public void Framework_self_cycle_never_returns()
    {
        HashTableDiagnosis d = HashTableClassifier.Classify(Framework((b, h, n) => n[1] = 1));
        HashTableDefect cycle = d.Defects.Single(x => x.Kind == DefectKind.SelfCycle);
        Assert.That(cycle.Indices, Is.EqualTo(new[] { 1 }));
        Assert.That(cycle.Buckets, Is.EqualTo(new[] { 1 }));
        Assert.That(d.Defects.Single(x => x.Kind == DefectKind.OrphanedEntry).Indices, Is.EqualTo(new[] { 0 }));
        Assert.That(HashTableLayout.FrameworkDictionary.LookupsThrowOnCycle, Is.False);
        Assert.That(DictCycleVerdict.Consequence(cycle, HashTableLayout.FrameworkDictionary, "1"), Does.Contain("never return"));
    }

    [Test]
    public void Framework_bucket_zero_means_entry_zero_not_empty()
    {
        // Bucket 1 pointing at entry 0 (0-based) is a valid one-entry chain, not "empty" as in 1-based layouts.
        HashTableImage one = Framework((b, h, n) => b[1] = 0, count: 1);
        Assert.That(HashTableClassifier.Classify(one).Defects, Is.Empty);
    }

    [Test]
    public void Core21_uses_one_based_buckets_and_plain_free_list()
    {
        var image = new HashTableImage
        {
            Layout = HashTableLayout.Core21Dictionary,
            Buckets = [0, 4, 0, 0, 0],
            HashCodes = [6, 11, 16, 21, 0],
            Nexts = [-1, 0, 1, 1, 0], // entries[3].next == 1 skips 2: entry 2 is lost
            Count = 4,
            FreeList = -1,
            FreeCount = 0,
        };
        HashTableDiagnosis d = HashTableClassifier.Classify(image);
        Assert.That(d.Defects.Single(x => x.Kind == DefectKind.OrphanedEntry).Indices, Is.EqualTo(new[] { 2 }));
        Assert.That(HashTableLayout.Core21Dictionary.LookupsThrowOnCycle, Is.True);
    }

    [Test]
    public void Framework_hashset_counts_free_slots_from_last_index()
    {
        // m_lastIndex 4, m_count 3, slot 2 free (hashCode -1) and the only free-list node.
        var image = new HashTableImage
        {
            Layout = HashTableLayout.FrameworkHashSet,
            Buckets = [0, 4, 0, 0, 0],
            HashCodes = [6, 11, -1, 21, 0],
            Nexts = [-1, 0, -1, 1, 0],
            Count = 3,
            LastIndex = 4,
            FreeList = 2,
        };
        Assert.That(HashTableClassifier.Classify(image).Defects, Is.Empty);
        HashTableImage doubled = new()
        {
            Layout = image.Layout, Buckets = image.Buckets, HashCodes = image.HashCodes, Nexts = [-1, 0, 2, 1, 0], Count = 3, LastIndex = 4, FreeList = 2,
        };
        Assert.That(HashTableClassifier.Classify(doubled).Defects.Select(x => x.Kind), Has.Member(DefectKind.CorruptFreeList));
    }

    [Test]
    public void Hostile_images_finish_and_stay_bounded()
    {
        var random = new Random(12345);
        for (int round = 0; round < 2000; round++)
        {
            int n = random.Next(0, 64);
            int[] Values(int length) => Enumerable.Range(0, length).Select(_ => random.Next(-5, n + 5)).ToArray();
            var image = new HashTableImage
            {
                Layout = (round % 4) switch
                {
                    0 => HashTableLayout.FrameworkDictionary,
                    1 => HashTableLayout.ModernDictionary,
                    2 => HashTableLayout.CoreSlotsHashSet,
                    _ => HashTableLayout.ModernHashSet,
                },
                Buckets = Values(random.Next(0, 70)),
                HashCodes = Values(n),
                Nexts = Values(n),
                Count = random.Next(-3, n + 3),
                LastIndex = random.Next(-3, n + 3),
                FreeList = random.Next(-3, n + 3),
                FreeCount = random.Next(-3, n + 3),
                KeysEqual = pairs => pairs.Select(p => (p.A ^ p.B) % 3 == 0).ToArray(),
            };
            HashTableDiagnosis d = HashTableClassifier.Classify(image);
            Assert.That(d.Defects.All(x => x.Indices.Count <= HashTableClassifier.MaxListed && x.Buckets.Count <= HashTableClassifier.MaxListed));
        }
    }
}
