using DiagExt.Tests.Infrastructure;
using DiagExt.Core.Detectors.DictCycle;
using DiagExt.Core.Heap;
using DiagExt.Core.Targets;
using DiagExt.Tests.Heap;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Tests.DictCycle;

/// <summary>
/// The classifier's fast path (ChainProof, EqualHashGroups) must change nothing but the time: on every
/// Dictionary/HashSet of a real dump, and on those tables with their fields and arrays changed at random (the
/// shapes racing writers and hostile dumps leave), the diagnosis with it equals the careful walk's alone, word for word.
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class ChainProofTests
{
    private static readonly Lazy<List<(string Name, HashTableImage Image)>> Tables = new(() =>
    {
        var tables = new List<(string, HashTableImage)>();
        using Target target = TargetOpener.OpenDump(HeapTestDump.Path);
        ClrHeap heap = target.Runtime!.Heap;
        foreach (var (table, shape) in DumpTables.Shaped(target))
        {
            // Keys are compared later, after the dump is closed: leave them out (EqualHashGroups is checked on its own below).
            if (HashTableReader.Read(target, table.Address, shape, heap) is (HashTableReader.Status.Read, { } instance, _))
                tables.Add(($"{table.Type!.Name} at 0x{table.Address:x}", WithoutKeys(instance.Image)));
        }
        return tables;
    });

    [Test]
    public void Every_table_of_a_real_dump_gets_the_careful_walks_diagnosis()
    {
        Assert.That(Tables.Value, Has.Count.GreaterThan(20), "the DictShapes dump holds the runtime's tables and the sample's");
        int proven = 0, corrupt = 0;
        foreach (var (name, image) in Tables.Value)
        {
            HashTableDiagnosis careful = HashTableClassifier.Classify(image, fastPath: false);
            Assert.That(Describe(HashTableClassifier.Classify(image)), Is.EqualTo(Describe(careful)), name);
            bool isProven = ChainProof.Prove(image, Used(image)) is not null;
            // The multiset sums keyed otherwise: the answer must not depend on the process's key.
            Assert.That(ChainProof.Prove(image, Used(image), key: 0), Is.EqualTo(ChainProof.Prove(image, Used(image))), name);
            proven += isProven ? 1 : 0;
            corrupt += careful.IsHealthy ? 0 : 1;
            // A table the proof accepts has no chain defect: only count or free-list ones can remain.
            if (isProven)
                Assert.That(careful.Defects.Where(d => d.Kind is not (DefectKind.CountMismatch or DefectKind.FreeCountMismatch or DefectKind.CorruptFreeList or DefectKind.CountOutOfRange or DefectKind.LengthMismatch or DefectKind.DuplicateKey)), Is.Empty, name);
        }
        Assert.That(corrupt, Is.GreaterThan(5), "the sample's corrupt tables are among them");
        Assert.That(proven, Is.GreaterThanOrEqualTo(Tables.Value.Count - corrupt), "every healthy table takes the fast path");
    }

    [Test]
    public void Randomly_damaged_tables_get_the_careful_walks_diagnosis()
    {
        var random = new Random(20261124);
        int checkedImages = 0, proven = 0;
        foreach (var (name, image) in Tables.Value.Where(t => Used(t.Image) >= 3).Take(60))
        {
            for (int round = 0; round < 150; round++)
            {
                HashTableImage damaged = Damage(image, random, out string what);
                string careful = Describe(HashTableClassifier.Classify(damaged, fastPath: false));
                Assert.That(Describe(HashTableClassifier.Classify(damaged)), Is.EqualTo(careful), $"{name}, {what}");
                // Equal hash codes looked for on a second thread while the proof runs, as for a big table on 2+ cores;
                // some pairs called duplicates so that the pairs show in the diagnosis (and those of a failed proof must not).
                HashTableImage keyed = Copy(damaged, keysEqual: pairs => pairs.Select(p => (p.A ^ p.B) % 5 == 0).ToArray());
                Assert.That(Describe(HashTableClassifier.Classify(keyed, fastPath: true, concurrentFrom: 0)),
                    Is.EqualTo(Describe(HashTableClassifier.Classify(keyed, fastPath: false))), $"{name}, {what}, concurrent");
                int? proof = ChainProof.Prove(damaged, Used(damaged));
                Assert.That(ChainProof.Prove(damaged, Used(damaged), key: (ulong)round), Is.EqualTo(proof), $"{name}, {what}, key {round}");
                proven += proof is not null ? 1 : 0;
                checkedImages++;
            }
        }
        Assert.That(checkedImages, Is.GreaterThan(1000));
        // Some damage leaves the chains sound (a changed count, a swapped free entry); most does not.
        Assert.That(proven, Is.GreaterThan(0).And.LessThan(checkedImages / 2));
    }

    [Test]
    public void A_loop_no_bucket_reaches_is_not_proven_sound()
    {
        // Two entries of one chain of a real table taken out of it and linked into a loop of their own: both stay in
        // their bucket and every entry still has exactly one predecessor, so only the loop check can tell.
        var (name, image) = Tables.Value.First(t => HashTableClassifier.Classify(t.Image).IsHealthy && t.Image.Layout.EncodedFreeList
            && Enumerable.Range(0, Used(t.Image)).Any(i => t.Image.Nexts[i] >= 0));
        int[] nexts = (int[])image.Nexts.Clone(), buckets = (int[])image.Buckets.Clone();
        int a = Enumerable.Range(0, Used(image)).First(i => image.Nexts[i] >= 0), b = image.Nexts[a];
        foreach (int x in new[] { a, b })
            Unlink(image, buckets, nexts, x);
        nexts[a] = b;
        nexts[b] = a;
        HashTableImage looped = Copy(image, buckets: buckets, nexts: nexts);

        Assert.That(ChainProof.Prove(looped, Used(looped)), Is.Null, name);
        Assert.That(ChainProof.Prove(looped, Used(looped), key: 0), Is.Null, name);
        Assert.That(HashTableClassifier.Classify(looped).Defects.Select(d => d.Kind), Has.Member(DefectKind.OrphanedEntry));
    }

    [Test]
    public void Equal_hash_codes_give_the_careful_walks_pairs_in_its_order()
    {
        // Hash codes made to collide often (every entry shares its code with one in eight), chains kept sound by
        // rebuilding them from the new codes in the runtime's own insertion order.
        int compared = FastAndCarefulAgree(h => h & ~7, out _);
        Assert.That(compared, Is.GreaterThan(100), "pairs compared");
    }

    [Test]
    public void A_table_of_two_hash_codes_gives_the_careful_walks_pairs_cut_at_its_limit()
    {
        // A comparer giving every key one of two codes: two chains, their pairs a square of their lengths. Both paths
        // keep the first MaxPerChain of each chain and go on to the next; the fast path no longer gives up there (and
        // no longer makes the careful walk run).
        FastAndCarefulAgree(h => 0x2a + (h & 1), out int mostInOneChain);
        Assert.That(mostInOneChain, Is.EqualTo(DuplicateKeyCandidates.MaxPerChain), "no table of the dump is long enough to reach the limit");
    }

    /// <summary>Compares the fast path's pairs with the careful walk's on every healthy table rehashed; returns how many.</summary>
    private static int FastAndCarefulAgree(Func<int, int> rehash, out int mostInOneChain)
    {
        int compared = 0;
        mostInOneChain = 0;
        foreach (var (name, image) in Tables.Value.Where(t => HashTableClassifier.Classify(t.Image).IsHealthy && Used(t.Image) >= 2))
        {
            int[] hashes = image.HashCodes.Select(h => h < 0 ? h : rehash(h)).ToArray();
            HashTableImage colliding = Rechain(image, hashes);
            var fast = new DuplicateKeyCandidates();
            EqualHashGroups.Collect(colliding, Used(colliding), fast);
            var careful = new List<(int A, int B)>();
            HashTableImage recording = Copy(colliding, keysEqual: pairs => { careful.AddRange(pairs); return new bool[pairs.Count]; });
            HashTableClassifier.Classify(recording, fastPath: false);
            Assert.That(fast.Pairs, Is.EqualTo(careful), name);
            var concurrent = new List<(int A, int B)>();
            HashTableClassifier.Classify(Copy(colliding, keysEqual: pairs => { concurrent.AddRange(pairs); return new bool[pairs.Count]; }), fastPath: true, concurrentFrom: 0);
            Assert.That(concurrent, Is.EqualTo(careful), $"{name}, collected beside the proof");
            compared += careful.Count;
            if (careful.Count > 0)
                mostInOneChain = Math.Max(mostInOneChain, careful.GroupBy(p => (uint)hashes[p.A] % (uint)colliding.Buckets.Length).Max(g => g.Count()));
        }
        return compared;
    }

    [Test]
    public void Equal_hash_codes_give_the_same_pairs_when_the_filter_splits_a_table_into_groups_or_stretches()
    {
        // A big table's filter runs group by group (each bitmap in cache); the dump's tables are small, so the groups
        // are made small here: 2^6 slots, up to 1,024 groups. Collisions as above, so there are pairs to lose.
        int compared = 0;
        foreach (var (name, image) in Tables.Value.Where(t => HashTableClassifier.Classify(t.Image).IsHealthy && Used(t.Image) >= 2))
        {
            HashTableImage colliding = Rechain(image, image.HashCodes.Select(h => h < 0 ? h : h & ~7).ToArray());
            var whole = new DuplicateKeyCandidates();
            var grouped = new DuplicateKeyCandidates();
            EqualHashGroups.Collect(colliding, Used(colliding), whole);
            EqualHashGroups.Collect(colliding, Used(colliding), grouped, groupSlotBits: 6);
            Assert.That(grouped.Pairs, Is.EqualTo(whole.Pairs), name);
            Assert.That(grouped.Buckets, Is.EqualTo(whole.Buckets), name);
            // On two cores the grouping pass is split into stretches of the table, each scattering beside the others.
            var stretched = new DuplicateKeyCandidates();
            EqualHashGroups.Group(colliding, Used(colliding), parts: 3, groupSlotBits: 6).Collect(stretched);
            Assert.That(stretched.Pairs, Is.EqualTo(whole.Pairs), $"{name}, grouped in three stretches side by side");
            Assert.That(stretched.Buckets, Is.EqualTo(whole.Buckets), $"{name}, grouped in three stretches side by side");
            compared += whole.Pairs.Count;
        }
        Assert.That(compared, Is.GreaterThan(100), "pairs compared");
    }

    [Test]
    public void Equal_hash_codes_give_the_same_pairs_when_placed_in_bins_as_a_stream_reads_them()
    {
        // What HashTableStream does with a big table: each stretch places its keys while it reads them, a chunk at a
        // time, into a fixed share of each group. Small groups (2^6 slots) and odd chunks, so the dump's tables fill many.
        int compared = 0, placed = 0;
        foreach (var (name, image) in Tables.Value.Where(t => HashTableClassifier.Classify(t.Image).IsHealthy && Used(t.Image) >= 2))
        {
            HashTableImage colliding = Rechain(image, image.HashCodes.Select(h => h < 0 ? h : h & ~7).ToArray());
            var whole = new DuplicateKeyCandidates();
            EqualHashGroups.Collect(colliding, Used(colliding), whole);
            foreach (int parts in new[] { 1, 2, 3 })
            {
                EqualHashBins bins = Placed(colliding, parts, chunk: 7);
                if (bins.Overflowed)
                    continue; // eight codes alike crowd a small group's share now and then: the stream then leaves the table to the image
                var binned = new DuplicateKeyCandidates();
                bins.Close(colliding.Buckets.Length).Collect(binned);
                Assert.That(binned.Pairs, Is.EqualTo(whole.Pairs), $"{name}, {parts} stretches");
                Assert.That(binned.Buckets, Is.EqualTo(whole.Buckets), $"{name}, {parts} stretches");
                placed++;
            }
            compared += whole.Pairs.Count;
        }
        Assert.That(compared, Is.GreaterThan(100), "pairs compared");
        Assert.That(placed, Is.GreaterThan(30), "tables placed in bins without overflowing");
    }

    [Test]
    public void Bins_overflow_when_every_hash_code_is_alike_and_the_stream_leaves_the_table_to_the_image()
    {
        // A hostile table (one hash code for all keys) puts every key in one group: its share overflows, and that must be
        // said, not written past. The real table: the largest healthy one, its codes all made one.
        var (name, image) = Tables.Value.Where(t => HashTableClassifier.Classify(t.Image).IsHealthy).MaxBy(t => Used(t.Image));
        Assert.That(Used(image), Is.GreaterThan(500), name);
        HashTableImage alike = Rechain(image, image.HashCodes.Select(h => h < 0 ? h : 7).ToArray());
        Assert.That(Placed(alike, parts: 2, chunk: 64).Overflowed, Is.True, name);
        Assert.That(Placed(image, parts: 2, chunk: 64).Overflowed, Is.False, name + " as it is");
    }

    private static EqualHashBins Placed(HashTableImage t, int parts, int chunk)
    {
        int n = Used(t);
        var bins = new EqualHashBins(n, parts, groupSlotBits: 6);
        var sums = new ChainSums(); // the stream's pass: the sums and the placement in one loop
        for (int p = 0; p < parts; p++)
        {
            (int from, int to) = EqualHashGroups.Stretch(n, parts, p);
            EqualHashBins.Placer placer = bins.For(p);
            for (int first = from; first < to; first += chunk)
            {
                int k = Math.Min(chunk, to - first);
                sums.AddEntries(new SplitEntryFields(t.HashCodes.AsSpan(first, k), t.Nexts.AsSpan(first, k)), first, n, t.Layout,
                    new FastModulo((uint)t.Buckets.Length), new ChainMix(0), ref placer);
            }
        }
        return bins;
    }

    private static int Used(HashTableImage t) => Math.Clamp(t.Layout.HighWaterIsLastIndex ? t.LastIndex ?? 0 : t.Count, 0, t.EntriesLength);

    private static string Describe(HashTableDiagnosis d) =>
        $"reachable {d.ReachableLive}, expected {d.ExpectedLive}, used {d.UsedEntries}\n" +
        string.Join("\n", d.Defects.Select(x => $"{x.Kind} [{string.Join(",", x.Indices)}] buckets [{string.Join(",", x.Buckets)}] {x.Detail}"));

    /// <summary>One random change of the kind a torn write or a hostile dump makes.</summary>
    private static HashTableImage Damage(HashTableImage t, Random random, out string what)
    {
        int[] buckets = (int[])t.Buckets.Clone(), hashes = (int[])t.HashCodes.Clone(), nexts = (int[])t.Nexts.Clone();
        int n = Used(t);
        int i = random.Next(n), j = random.Next(n);
        int count = t.Count, freeList = t.FreeList;
        switch (random.Next(8))
        {
            case 0: what = $"entries[{i}].next = {i}"; nexts[i] = i; break;
            case 1: what = $"entries[{i}].next = {j}"; nexts[i] = j; break;
            case 2: what = $"entries[{i}].next = -1"; nexts[i] = -1; break;
            case 3: what = $"entries[{i}].next out of range"; nexts[i] = random.Next(2) == 0 ? n + random.Next(1, 5) : -2 - random.Next(3); break;
            case 4: int b = random.Next(buckets.Length); what = $"buckets[{b}] = {i}"; buckets[b] = t.Layout.OneBasedBuckets ? i + 1 : i; break;
            case 5: what = $"entries[{i}].hashCode changed"; hashes[i] ^= 1 << random.Next(31); break;
            case 6: what = "count changed"; count += random.Next(2) == 0 ? -1 : 1; break;
            default: what = $"free list -> {i}"; freeList = i; break;
        }
        return Copy(t, buckets, hashes, nexts, count, freeList);
    }

    /// <summary>Takes entry x out of its chain (its predecessor, bucket or entry, skips it).</summary>
    private static void Unlink(HashTableImage t, int[] buckets, int[] nexts, int x)
    {
        int offset = t.Layout.OneBasedBuckets ? 1 : 0;
        for (int b = 0; b < buckets.Length; b++)
            if (buckets[b] - offset == x)
                buckets[b] = nexts[x] + offset;
        for (int i = 0; i < nexts.Length; i++)
            if (nexts[i] == x && i != x)
                nexts[i] = nexts[x];
    }

    /// <summary>The chains rebuilt for new hash codes: entries inserted in index order, each at its chain's head, as Add does.</summary>
    private static HashTableImage Rechain(HashTableImage t, int[] hashes)
    {
        int n = Used(t), offset = t.Layout.OneBasedBuckets ? 1 : 0;
        int[] buckets = Enumerable.Repeat(offset - 1, t.Buckets.Length).ToArray(), nexts = (int[])t.Nexts.Clone();
        for (int i = 0; i < n; i++)
        {
            // Free as the original image encodes it (the new hash codes keep the free ones negative).
            if (t.IsFree(i))
                continue;
            int b = (int)((uint)hashes[i] % (uint)buckets.Length);
            nexts[i] = buckets[b] - offset;
            buckets[b] = i + offset;
        }
        return Copy(t, buckets, hashes, nexts);
    }

    private static HashTableImage WithoutKeys(HashTableImage t) => Copy(t);

    private static HashTableImage Copy(HashTableImage t, int[]? buckets = null, int[]? hashes = null, int[]? nexts = null, int? count = null, int? freeList = null, Func<IReadOnlyList<(int A, int B)>, bool[]>? keysEqual = null) => new()
    {
        Layout = t.Layout,
        Buckets = buckets ?? t.Buckets,
        HashCodes = hashes ?? t.HashCodes,
        Nexts = nexts ?? t.Nexts,
        Blank = t.Blank,
        Count = count ?? t.Count,
        FreeList = freeList ?? t.FreeList,
        FreeCount = t.FreeCount,
        LastIndex = t.LastIndex,
        KeysEqual = keysEqual,
    };
}
