namespace DiagExt.Core.Detectors.DictCycle;

/// <summary>Where an entry stands in the chain walk: not reached yet, on the chain being walked, or done.</summary>
internal enum ChainMark : byte
{
    Unseen = 0,
    OnPath = 1,
    Done = 2,
}

/// <summary>
/// Two bits per entry for the chain walk's state: one memory word answers "on this path?" and "done before?"
/// together. In a big table each entry's state is a cache miss; two separate bit sets would be two.
/// </summary>
internal sealed class ChainMarks
{
    private readonly ulong[] _words;

    public ChainMarks(int length) => _words = new ulong[(length + 31) >> 5];

    public ChainMark this[int index]
    {
        get => (ChainMark)((_words[index >> 5] >> ((index & 31) << 1)) & 3);
        set
        {
            int shift = (index & 31) << 1;
            ref ulong word = ref _words[index >> 5];
            word = (word & ~(3UL << shift)) | ((ulong)value << shift);
        }
    }
}
