namespace DiagExt.Core.Detectors.DictCycle;

/// <summary>
/// The parts of one Dictionary/HashSet instance the classifier needs, copied out of the target in bulk:
/// the raw bucket array, each entry's raw hashCode and next, and which entries were never written.
/// Nothing here is trusted: every index in it may point anywhere.
/// </summary>
public sealed class HashTableImage
{
    public required HashTableLayout Layout { get; init; }

    /// <summary>Raw bucket values (index or index + 1, per layout).</summary>
    public required int[] Buckets { get; init; }

    /// <summary>Raw hashCode of each entry (uint stored as int in modern layouts).</summary>
    public required int[] HashCodes { get; init; }

    /// <summary>Raw next of each entry.</summary>
    public required int[] Nexts { get; init; }

    /// <summary>Entries whose whole Entry is zero (key/value never written), or null when unknown.</summary>
    public BitSetView? Blank { get; init; }

    /// <summary>The count field: high-water mark (Dictionary) or live count (legacy HashSet).</summary>
    public required int Count { get; init; }

    public required int FreeList { get; init; }

    /// <summary>The freeCount field; null for layouts without one.</summary>
    public int? FreeCount { get; init; }

    /// <summary>The lastIndex field of a legacy HashSet; null otherwise.</summary>
    public int? LastIndex { get; init; }

    /// <summary>
    /// Which of the given entry pairs hold equal keys (read from the target), answered for all pairs at once
    /// so the reads can be sorted; null to skip the duplicate-key check.
    /// </summary>
    public Func<IReadOnlyList<(int A, int B)>, bool[]>? KeysEqual { get; init; }

    public int EntriesLength => Nexts.Length;

    /// <summary>Whether entry i is free (removed or never used) rather than live, as its layout encodes it.</summary>
    internal bool IsFree(int i) => Layout.IsFree(HashCodes[i], Nexts[i]);
}

/// <summary>A read-only view of a <see cref="BitSet"/> handed to the classifier.</summary>
public sealed class BitSetView
{
    private readonly BitSet _bits;
    private readonly int _length;

    internal BitSetView(BitSet bits, int length)
    {
        _bits = bits;
        _length = length;
    }

    public static BitSetView FromIndices(int length, IEnumerable<int> indices)
    {
        var bits = new BitSet(length);
        foreach (int i in indices)
            bits[i] = true;
        return new BitSetView(bits, length);
    }

    public bool this[int index] => index >= 0 && index < _length && _bits[index];
}
