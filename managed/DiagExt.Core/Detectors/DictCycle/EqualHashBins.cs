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
    private readonly long[][] _shares; // per stretch, per group: the share's end << 32 | its next free slot
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
        _shares = new long[parts][];
        for (int p = 0; p < parts; p++)
        {
            _shares[p] = new long[groups];
            for (int g = 0; g < groups; g++)
                _shares[p][g] = (long)(ShareStart(g, p) + _capacity) << 32 | (uint)ShareStart(g, p);
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
        private readonly long[] _shares, _keys;
        private readonly EqualHashGroups.Round _round;

        public Placer(EqualHashBins bins, int part)
        {
            (_bins, _shares, _keys, _round) = (bins, bins._shares[part], bins._keys, bins._round);
        }

        [MethodImpl(MethodImplOptions.AggressiveInlining)] // every live entry of a big table
        public void Add(int index, int hashCode)
        {
            ref long share = ref _shares[_round.GroupOf(hashCode)];
            int at = (int)share;
            if (at < (int)(share >> 32))
            {
                _keys[at] = ((long)hashCode << 32) | (uint)index;
                share++;
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
                int from = ShareStart(g, p), count = (int)_shares[p][g] - from;
                if (at != from)
                    Array.Copy(_keys, from, _keys, at, count); // at <= from: towards the front, never over unread keys
                at += count;
            }
        }
        starts[groups] = at;
        return new EqualHashGroups.Grouped(bucketCount, _keys, starts, _round, _groupSlotBits);
    }
}
