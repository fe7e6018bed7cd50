using System.Runtime.CompilerServices;
using DiagExt.Core.Heap;

namespace DiagExt.Core.Detectors.DictCycle;

/// <summary>
/// The equal-hash filter's first-round keys placed by group in the same pass that reads the entries, so a streamed
/// table is read once, not once to count each group and again to place its keys (bench/RESULTS.md: the second read
/// of the 5 M table's 120 MB and its split were a tenth of dictcycle's CPU). Each (group, stretch) gets a fixed share
/// of one array, its expected count plus six standard deviations: hash codes that crowd one group past that (equal
/// codes, a hostile dump) overflow, and the table is then left to the image, which counts first (<see cref="EqualHashGroups.Group"/>).
/// Groups are laid out group by group, each group's stretches side by side, so <see cref="Close"/> can close the gaps
/// in place, moving keys only towards the front.
/// </summary>
internal sealed class EqualHashBins
{
    private readonly EqualHashGroups.Round _round;
    private readonly int _parts, _capacity, _groupSlotBits;
    private readonly int[][] _fills; // per stretch, per group: the next free slot in its share
    private readonly long[] _keys;

    /// <param name="groupSlotBits">Slot bits per group, as <see cref="EqualHashGroups.FirstRound"/> was given them (tests make groups small).</param>
    public EqualHashBins(int n, int parts, int groupSlotBits = EqualHashGroups.DefaultGroupSlotBits)
    {
        EqualHashGroups.Round round = EqualHashGroups.FirstRound(n, groupSlotBits);
        _round = round;
        _groupSlotBits = groupSlotBits;
        _parts = parts;
        int groups = 1 << round.GroupBits;
        double expected = (double)n / parts / groups;
        _capacity = (int)Math.Min(int.MaxValue / 2, expected + 6 * Math.Sqrt(expected) + 16);
        _keys = BigArrays.Uninitialized<long>(checked(groups * parts * _capacity));
        _fills = new int[parts][];
        for (int p = 0; p < parts; p++)
        {
            _fills[p] = new int[groups];
            for (int g = 0; g < groups; g++)
                _fills[p][g] = ShareStart(g, p);
        }
    }

    /// <summary>Whether some group's share overflowed: the table is not proven here.</summary>
    public bool Overflowed { get; private set; }

    private int ShareStart(int group, int part) => (group * _parts + part) * _capacity;

    /// <summary>Places the keys of one chunk of stretch <paramref name="part"/>'s live entries (the first is entry <paramref name="first"/>).</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)] // every entry of a big table
    public void AddLive(int part, ReadOnlySpan<int> hashes, ReadOnlySpan<int> nexts, int first, HashTableLayout layout)
    {
        int[] fill = _fills[part];
        long[] keys = _keys;
        nexts = nexts[..hashes.Length];
        for (int k = 0; k < hashes.Length; k++)
        {
            int hash = hashes[k];
            if (layout.IsFree(hash, nexts[k]))
                continue;
            uint g = _round.GroupOf(hash);
            int at = fill[g];
            if (at == ShareStart((int)g, part) + _capacity)
            {
                Overflowed = true; // written from several stretches, only ever to true
                return;
            }
            keys[at] = ((long)hash << 32) | (uint)(first + k);
            fill[g] = at + 1;
        }
    }

    /// <summary>The keys, each group's together (group by group, in stretch order), ready for <see cref="EqualHashGroups.Grouped"/>.</summary>
    public EqualHashGroups.Grouped Close(int bucketCount)
    {
        int groups = 1 << _round.GroupBits;
        var starts = new int[groups + 1];
        int at = 0;
        for (int g = 0; g < groups; g++)
        {
            starts[g] = at;
            for (int p = 0; p < _parts; p++)
            {
                int from = ShareStart(g, p), count = _fills[p][g] - from;
                if (at != from)
                    Array.Copy(_keys, from, _keys, at, count); // at <= from: towards the front, never over unread keys
                at += count;
            }
        }
        starts[groups] = at;
        return new EqualHashGroups.Grouped(bucketCount, _keys, starts, _round, _groupSlotBits);
    }
}
