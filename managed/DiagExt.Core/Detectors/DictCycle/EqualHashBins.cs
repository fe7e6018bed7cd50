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
    private readonly int[][] _fills, _ends; // per stretch, per group: the next free slot in its share, and the share's end
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
        _ends = new int[parts][];
        for (int p = 0; p < parts; p++)
        {
            (_fills[p], _ends[p]) = (new int[groups], new int[groups]);
            for (int g = 0; g < groups; g++)
                (_fills[p][g], _ends[p][g]) = (ShareStart(g, p), ShareStart(g, p) + _capacity);
        }
    }

    /// <summary>Whether some group's share overflowed: the table is not proven here.</summary>
    public bool Overflowed { get; private set; }

    private int ShareStart(int group, int part) => (group * _parts + part) * _capacity;

    /// <summary>Where stretch <paramref name="part"/>'s live entries are placed, handed each by <see cref="ChainSums.AddEntries"/>.</summary>
    public Placer For(int part) => new(this, part);

    /// <summary>Places one stretch's keys in its shares: a live entry's key goes to the next free slot of its group's share.</summary>
    internal readonly struct Placer : ILiveEntries
    {
        private readonly EqualHashBins _bins;
        private readonly int[] _fill, _end;
        private readonly long[] _keys;
        private readonly EqualHashGroups.Round _round;

        public Placer(EqualHashBins bins, int part)
        {
            (_bins, _fill, _end, _keys, _round) = (bins, bins._fills[part], bins._ends[part], bins._keys, bins._round);
        }

        [MethodImpl(MethodImplOptions.AggressiveInlining)] // every live entry of a big table
        public void Add(int index, int hashCode)
        {
            uint g = _round.GroupOf(hashCode);
            int at = _fill[g];
            if (at < _end[g])
            {
                _keys[at] = ((long)hashCode << 32) | (uint)index;
                _fill[g] = at + 1;
            }
            else
            {
                _bins.Overflowed = true; // written from several stretches, only ever to true; nothing is written past the share
            }
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
