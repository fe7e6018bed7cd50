namespace DiagExt.Core.Detectors.DictCycle;

/// <summary>A fixed-size set of bits: the classifier's per-entry state costs bits, not objects.</summary>
internal sealed class BitSet
{
    private readonly ulong[] _words;

    public BitSet(int length) => _words = new ulong[(length + 63) >> 6];

    public bool this[int index]
    {
        get => (_words[index >> 6] & (1UL << index)) != 0;
        set
        {
            if (value)
                _words[index >> 6] |= 1UL << index;
            else
                _words[index >> 6] &= ~(1UL << index);
        }
    }
}
