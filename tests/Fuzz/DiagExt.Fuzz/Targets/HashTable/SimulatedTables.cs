using DiagExt.Core.Detectors.DictCycle;

namespace DiagExt.Fuzz.Targets.HashTable;

/// <summary>
/// Tables built by replaying Dictionary's own insert and remove on the image (modern layout: 1-based buckets, free
/// entries encoded as -3 - next): healthy ones and one with entries[k].next == k, as seeds before a core exists.
/// Images read from real cores by the seed builder are the better seeds.
/// </summary>
internal static class SimulatedTables
{
    public static IEnumerable<byte[]> All()
    {
        foreach (int size in new[] { 3, 17, 197 })
        {
            HashTableImage healthy = Build(size, size - 1, removeEvery: 3);
            yield return HashTableImageCodec.Encode(healthy);
            HashTableImage cycled = Build(size, size - 1, removeEvery: 0);
            cycled.Nexts[size / 2] = size / 2; // the seed's hang: a chain that returns to itself
            yield return HashTableImageCodec.Encode(cycled, keysEqualByHash: true);
        }
    }

    private static HashTableImage Build(int size, int inserts, int removeEvery)
    {
        int[] buckets = new int[size], hashes = new int[size], nexts = new int[size];
        int count = 0, freeList = -1, freeCount = 0;
        for (int key = 0; key < inserts; key++)
        {
            int hash = key * 31 + 7, bucket = hash % size, index;
            if (freeCount > 0)
            {
                index = freeList;
                freeList = -3 - nexts[freeList];
                freeCount--;
            }
            else
            {
                index = count++;
            }
            hashes[index] = hash;
            nexts[index] = buckets[bucket] - 1;
            buckets[bucket] = index + 1;
            if (removeEvery > 0 && key % removeEvery == removeEvery - 1)
            {
                buckets[bucket] = nexts[index] + 1; // remove the head just inserted
                nexts[index] = -3 - freeList;
                freeList = index;
                freeCount++;
            }
        }
        return new HashTableImage
        {
            Layout = HashTableLayout.ModernDictionary, Buckets = buckets, HashCodes = hashes, Nexts = nexts,
            Count = count, FreeList = freeList, FreeCount = freeCount,
        };
    }
}
