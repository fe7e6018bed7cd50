namespace DiagExt.Fuzz.Engine;

/// <summary>The values that break readers most often: zero, one, the extremes of each width, sign boundaries.</summary>
internal static class Interesting
{
    public static readonly byte[] Bytes = [0x00, 0x01, 0x7F, 0x80, 0xFF, 0x10, 0x20, 0x40];

    public static readonly ulong[] Words =
    [
        0, 1, 2, 0x7F, 0x80, 0xFF, 0x100, 0x7FFF, 0x8000, 0xFFFF, 0x10000,
        0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0xFFFFFFFE, 0x100000000,
        0x7FFFFFFFFFFFFFFF, 0x8000000000000000, 0xFFFFFFFFFFFFFFFF, 0xFFFFFFFFFFFFFFFE,
    ];

    /// <summary>What to put in a field: extremes, its own structure, the input's size, a neighbour of its value.</summary>
    public static ulong ForField(Field field, ulong current, int inputLength, Random rng)
    {
        ulong allOnes = field.Size >= 8 ? ulong.MaxValue : (1UL << (field.Size * 8)) - 1; // sizes 1 to 8
        ulong signMax = allOnes >> 1;
        return (field.Kind, rng.Next(14)) switch
        {
            (_, 0) => 0,
            (_, 1) => 1,
            (_, 2) => allOnes, // -1
            (_, 3) => signMax, // 0x7FFFFFFF
            (_, 4) => 0xFFFFFFFF & allOnes,
            (_, 5) => signMax + 1, // the sign bit alone
            (_, 6) => field.Self,
            (FieldKind.Index, 7) => field.Self + 1,
            (FieldKind.Index, _) => (ulong)(long)rng.Next(-4, 64) & allOnes,
            (_, 7) => (ulong)inputLength,
            (_, 8) => (ulong)inputLength - 1 + (ulong)rng.Next(3),
            (_, 9) => current + 1,
            (_, 10) => current - 1,
            (_, 11) => current * 2 + (ulong)rng.Next(2),
            (_, 12) => field.Self + (ulong)rng.Next(-16, 17),
            _ => ((ulong)rng.NextInt64() ^ ((ulong)rng.NextInt64() << 32)) & allOnes,
        } & allOnes;
    }
}
