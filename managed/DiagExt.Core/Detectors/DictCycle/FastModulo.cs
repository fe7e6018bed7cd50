namespace DiagExt.Core.Detectors.DictCycle;

/// <summary>
/// hash % buckets without a division per entry: the multiply-shift .NET's own Dictionary uses on 64-bit
/// (Lemire, "Faster Remainder by Direct Computation"), exact for every 32-bit value and divisor.
/// A division is most of the cost of checking an entry that is already in cache.
/// </summary>
internal readonly struct FastModulo
{
    private readonly ulong _multiplier;

    public FastModulo(uint divisor)
    {
        Divisor = divisor;
        _multiplier = divisor == 0 ? 0 : ulong.MaxValue / divisor + 1;
    }

    public uint Divisor { get; }

    public uint Remainder(uint value) => (uint)(((((_multiplier * value) >> 32) + 1) * Divisor) >> 32);
}
