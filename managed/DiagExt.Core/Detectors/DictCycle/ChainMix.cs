using System.Runtime.CompilerServices;

namespace DiagExt.Core.Detectors.DictCycle;

/// <summary>
/// The keyed mix <see cref="ChainSums"/> adds, its key's parts derived once per table rather than once a call. Four
/// steps, each one-to-one (an XOR with the key, a multiply by an odd multiplier drawn from the key, a shift-XOR, the
/// same again with splitmix64's constant), so two different values never mix alike; and two different multisets give
/// equal sums only by chance, about 2^-64. Plain 64-bit multiplies: the 128-bit product the mix used before compiles,
/// in the native executable (the x64 baseline, no BMI2), to a call into Math.BigMul's software fallback, which took
/// 6 % of analyze's CPU on the bench dump (bench/RESULTS.md).
/// </summary>
internal readonly struct ChainMix
{
    private readonly ulong _key, _multiplier;

    public ChainMix(ulong key)
    {
        _key = key;
        _multiplier = ((key ^ 0x9E3779B97F4A7C15UL) * 0xD6E8FEB86659FD93UL) | 1;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)] // three times an entry
    public ulong Of(ulong value)
    {
        ulong x = (value ^ _key) * _multiplier;
        x ^= x >> 32;
        x *= 0xBF58476D1CE4E5B9UL;
        return x ^ (x >> 31);
    }
}
