/// <summary>
/// One instance per corruption class, each built by editing the private arrays of a healthy instance.
/// Colliding keys make the chain order known: with keys k0..k3 in one bucket the chain is 3 -> 2 -> 1 -> 0.
/// </summary>
static class Corrupt
{
    public static Dictionary<string, int>? SelfCycle, Cycle, NextOutOfRange, BucketOutOfRange, CrossLinked,
        ChainReachesFreeEntry, WrongBucket, OrphanedEntry, PhantomEntry, CorruptFreeList, FreeCountMismatch,
        CountOutOfRange, LengthMismatch, DuplicateKey;

    public static HashSet<string>? HashSetSelfCycle;
    public static Dictionary<int, Guid>? ValueKeySelfCycle;
    public static NamedMap? DerivedSelfCycle;

    public static void Build()
    {
        SelfCycle = Colliding(4);
        Tamper.SetNext(SelfCycle, 1, 1);
        Expect.Line(nameof(SelfCycle), "self-cycle", [1], [Tamper.BucketOf(SelfCycle, 1)]);
        Expect.Line(nameof(SelfCycle), "orphaned-entry", [0], []);

        Cycle = Colliding(4);
        Tamper.SetNext(Cycle, 0, 2);
        Expect.Line(nameof(Cycle), "cycle", [2, 1, 0], [Tamper.BucketOf(Cycle, 0)]);

        NextOutOfRange = Colliding(4);
        Tamper.SetNext(NextOutOfRange, 1, 1000);
        Expect.Line(nameof(NextOutOfRange), "next-out-of-range", [1], [Tamper.BucketOf(NextOutOfRange, 1)]);

        BucketOutOfRange = Spread(5);
        int empty = Array.IndexOf(Tamper.Buckets(BucketOutOfRange), 0);
        Tamper.Buckets(BucketOutOfRange)[empty] = 5000;
        Expect.Line(nameof(BucketOutOfRange), "bucket-out-of-range", [], [empty]);

        CrossLinked = Spread(5);
        int[] buckets = Tamper.Buckets(CrossLinked);
        int used = Array.FindLastIndex(buckets, b => b != 0);
        int free = Array.IndexOf(buckets, 0);
        buckets[free] = buckets[used];
        Expect.Line(nameof(CrossLinked), "cross-linked", [buckets[used] - 1], [Math.Max(used, free)]);

        ChainReachesFreeEntry = Colliding(4);
        ChainReachesFreeEntry.Remove("k0"); // entry 0 is free, chain 3 -> 2 -> 1
        Tamper.SetNext(ChainReachesFreeEntry, 1, 0);
        Expect.Line(nameof(ChainReachesFreeEntry), "chain-reaches-free-entry", [0], [Tamper.BucketOf(ChainReachesFreeEntry, 1)]);

        WrongBucket = Spread(5);
        int bucketOf2 = Tamper.BucketOf(WrongBucket, 2);
        Tamper.SetHash(WrongBucket, 2, Tamper.Hash(WrongBucket, 2) + 1);
        Expect.Line(nameof(WrongBucket), "wrong-bucket", [2], [bucketOf2]);

        OrphanedEntry = Colliding(4);
        Tamper.SetNext(OrphanedEntry, 2, 0); // 3 -> 2 -> 0: entry 1 is lost
        Expect.Line(nameof(OrphanedEntry), "orphaned-entry", [1], []);
        Expect.Line(nameof(OrphanedEntry), "count-mismatch", [], []);

        PhantomEntry = new Dictionary<string, int>(7) { ["a"] = 1, ["b"] = 2, ["c"] = 3 };
        Tamper.SetInt(PhantomEntry, "_count", 4); // entry 3 counted, never written
        Expect.Line(nameof(PhantomEntry), "phantom-entry", [3], []);

        CorruptFreeList = Spread(5);
        CorruptFreeList.Remove("k1");
        CorruptFreeList.Remove("k3"); // free list: 3 -> 1
        Tamper.SetNext(CorruptFreeList, 3, -3 - 4); // ... now 3 -> 4, a live entry
        Expect.Line(nameof(CorruptFreeList), "corrupt-free-list", [4], []);

        FreeCountMismatch = Spread(5);
        FreeCountMismatch.Remove("k2");
        Tamper.SetInt(FreeCountMismatch, "_freeCount", 2);
        Expect.Line(nameof(FreeCountMismatch), "free-count-mismatch", [], []);

        CountOutOfRange = Spread(5);
        Tamper.SetInt(CountOutOfRange, "_count", Tamper.Entries(CountOutOfRange).Length + 5);
        Expect.Line(nameof(CountOutOfRange), "count-out-of-range", [], []);

        LengthMismatch = Spread(5);
        int[] bigger = new int[Tamper.Buckets(LengthMismatch).Length * 2 + 1];
        Array.Copy(Tamper.Buckets(LengthMismatch), bigger, Tamper.Buckets(LengthMismatch).Length);
        Tamper.SetBuckets(LengthMismatch, bigger);
        Expect.Line(nameof(LengthMismatch), "length-mismatch", [], []);

        DuplicateKey = Colliding(3);
        Tamper.SetKey(DuplicateKey, 0, new string("k1".AsSpan())); // a second "k1", another string object
        Expect.Line(nameof(DuplicateKey), "duplicate-key", [0, 1], [Tamper.BucketOf(DuplicateKey, 0)]);

        HashSetSelfCycle = new HashSet<string>(new Collide()) { "k0", "k1", "k2", "k3" };
        Tamper.SetNext(HashSetSelfCycle, 1, 1);
        Expect.Line(nameof(HashSetSelfCycle), "self-cycle", [1], [Tamper.BucketOf(HashSetSelfCycle, 1)]);

        // int keys hash to themselves: 0, 7, 14, 21 share bucket 0 of a 7-bucket table.
        ValueKeySelfCycle = new Dictionary<int, Guid>();
        foreach (int k in new[] { 0, 7, 14, 21 })
            ValueKeySelfCycle[k] = Guid.Empty;
        Tamper.SetNext(ValueKeySelfCycle, 2, 2);
        Expect.Line(nameof(ValueKeySelfCycle), "self-cycle", [2], [Tamper.BucketOf(ValueKeySelfCycle, 2)]);

        DerivedSelfCycle = new NamedMap();
        foreach (string k in new[] { "a", "b", "c", "d", "e" })
            DerivedSelfCycle[k] = 1;
        int chained = Enumerable.Range(0, 5).First(i => Tamper.Next(DerivedSelfCycle, i) == -1);
        Tamper.SetNext(DerivedSelfCycle, chained, chained);
        Expect.Line(nameof(DerivedSelfCycle), "self-cycle", [chained], [Tamper.BucketOf(DerivedSelfCycle, chained)]);
    }

    private static Dictionary<string, int> Colliding(int count)
    {
        var d = new Dictionary<string, int>(new Collide());
        for (int i = 0; i < count; i++)
            d[$"k{i}"] = i;
        return d;
    }

    private static Dictionary<string, int> Spread(int count)
    {
        var d = new Dictionary<string, int>();
        for (int i = 0; i < count; i++)
            d[$"k{i}"] = i;
        return d;
    }
}
