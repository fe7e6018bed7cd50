using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace DiagExt.Core.Detectors.DictCycle;

/// <summary>
/// The two fields of a run of a table's entries that the proof and the equal-hash filter read, wherever they sit: split
/// out into arrays (a table's image) or still in the raw bytes of the target's entries (a streamed chunk). The passes
/// over entries are generic over it, so each is one loop that the compiler specialises for both, not two copies.
/// </summary>
internal interface IEntryFields
{
    /// <summary>Entries in the run.</summary>
    int Count { get; }

    /// <summary>Entry <paramref name="k"/>'s hash code (0 &lt;= k &lt; Count).</summary>
    int HashCode(int k);

    /// <summary>Entry <paramref name="k"/>'s next (0 &lt;= k &lt; Count).</summary>
    int Next(int k);
}

/// <summary>Hash codes and nexts already split into arrays (the image's, or a test's).</summary>
internal readonly ref struct SplitEntryFields : IEntryFields
{
    private readonly ReadOnlySpan<int> _hashes, _nexts;

    public SplitEntryFields(ReadOnlySpan<int> hashes, ReadOnlySpan<int> nexts)
    {
        _hashes = hashes;
        _nexts = nexts[..hashes.Length];
    }

    public int Count => _hashes.Length;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public int HashCode(int k) => _hashes[k];

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public int Next(int k) => _nexts[k];
}

/// <summary>
/// The fields read in place from a chunk of raw entries, as the target's bytes stream past: no split into arrays first
/// (that copy and its second loop were a tenth of a streamed table's CPU). The offsets are checked once here, so each
/// read is inside the chunk for every k below Count. Read in the host's byte order: little-endian, as every target ClrMD
/// reads (x86, x64, ARM, ARM64).
/// </summary>
internal readonly ref struct RawEntryFields : IEntryFields
{
    private readonly ref byte _start;
    private readonly int _size, _hashAt, _nextAt;

    public RawEntryFields(ReadOnlySpan<byte> chunk, HashTableShape shape)
    {
        if (!Fits(shape))
            throw new ArgumentException("the entry's hashCode or next lies outside the entry", nameof(shape));
        _start = ref MemoryMarshal.GetReference(chunk);
        (_size, _hashAt, _nextAt) = (shape.EntrySize, shape.HashCodeOffset, shape.NextOffset);
        Count = chunk.Length / _size;
    }

    /// <summary>Whether both fields lie inside an entry (the shape's offsets come from the target's own metadata).</summary>
    public static bool Fits(HashTableShape shape) =>
        shape.EntrySize >= 4 && (uint)shape.HashCodeOffset <= (uint)(shape.EntrySize - 4) && (uint)shape.NextOffset <= (uint)(shape.EntrySize - 4);

    public int Count { get; }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public int HashCode(int k) => Unsafe.ReadUnaligned<int>(ref Unsafe.Add(ref _start, (nint)k * _size + _hashAt));

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public int Next(int k) => Unsafe.ReadUnaligned<int>(ref Unsafe.Add(ref _start, (nint)k * _size + _nextAt));
}

/// <summary>What a pass over entries hands each live entry to, beside its sums: the equal-hash filter's placement, or nothing.</summary>
internal interface ILiveEntries
{
    void Add(int index, int hashCode);
}

/// <summary>No use for the live entries beyond the sums (the image's proof, which groups them later).</summary>
internal readonly struct NoLiveEntries : ILiveEntries
{
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Add(int index, int hashCode)
    {
    }
}
