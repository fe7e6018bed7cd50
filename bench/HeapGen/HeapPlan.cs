/// <summary>How much of each kind of object the generator builds.</summary>
sealed record HeapPlan(
    string Name,
    int BigEntries,
    int Tables,
    int MaxTableSizeLog2,
    int[] LargeTables,
    int Strings,
    int Arrays,
    int Nodes,
    int WaitingThreads)
{
    /// <summary>Over 10 million objects: 5M keys of the big dictionary, ~3M in smaller tables, ~3M strings, arrays and nodes.</summary>
    public static HeapPlan Full { get; } = new("full", 5_000_000, 4_000, 12, [100_000, 300_000, 1_000_000], 1_500_000, 500_000, 1_500_000, 8);

    /// <summary>This plan with every count times <paramref name="factor"/> (the table sizes' spread unchanged): growth measurements.</summary>
    public HeapPlan Scaled(int factor) => factor == 1 ? this : this with
    {
        Name = $"{Name} x{factor}",
        BigEntries = checked(BigEntries * factor),
        Tables = checked(Tables * factor),
        LargeTables = LargeTables.Select(n => checked(n * factor)).ToArray(),
        Strings = checked(Strings * factor),
        Arrays = checked(Arrays * factor),
        Nodes = checked(Nodes * factor),
    };

    public static HeapPlan Quick { get; } = new("quick", 500_000, 400, 12, [10_000, 30_000, 100_000], 150_000, 50_000, 150_000, 8);
}
