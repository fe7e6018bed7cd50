namespace DiagExt.Core.Detectors.DictCycle;

/// <summary>
/// How many exceptions of one kind a table threw, where and from which caller: "412 InvalidOperationException thrown in
/// ThrowHelper.ThrowInvalidOperationException_ConcurrentOperationsNotSupported from Program.Modify". ByTypeOnly: their
/// stack traces name no collection frame (the JIT inlined it), so they are this table's only as the process's one
/// corrupt table.
/// </summary>
public sealed record ExceptionCount(string Type, string? ThrownIn, string? CalledFrom, int Count, bool ByTypeOnly, bool AtLeast)
{
    private const int MaxGroups = 8;

    /// <summary>
    /// The table's exceptions grouped, largest groups first: at most <see cref="MaxGroups"/>, but every exception type thrown
    /// keeps its largest group (the verdict names each type the census shows).
    /// </summary>
    /// <param name="capped">More candidate exceptions were on the heap than were examined: the counts are lower bounds.</param>
    internal static IReadOnlyList<ExceptionCount> Of(IReadOnlyList<CollectionException> exceptions, HashTableThreadFinder.Subject subject, bool capped)
    {
        var groups = exceptions
            .Where(e => e.RunsThrough(subject.TypeName) || (e.CollectionTypes.Count == 0 && subject.OnlyCorruptTable))
            .GroupBy(e => (e.Type, e.Thrower, e.Caller, ByType: e.CollectionTypes.Count == 0))
            .Select(g => new ExceptionCount(g.Key.Type, g.Key.Thrower, g.Key.Caller, g.Count(), g.Key.ByType, capped))
            .OrderByDescending(c => c.Count)
            .ToList();
        var kept = groups.Take(MaxGroups).ToList();
        kept.AddRange(groups.Skip(MaxGroups).Where(g => !kept.Any(k => k.Type == g.Type)).DistinctBy(g => g.Type));
        return kept;
    }

    private string Quantity => AtLeast ? $"at least {Count:N0}" : $"{Count:N0}";

    public string Describe() =>
        ThrownIn is null
            ? $"{Quantity} x {Type} with the concurrent-operations message and no stack trace yet (being thrown)"
            : $"{Quantity} x {Type} thrown in {ThrownIn}{(CalledFrom is null ? "" : $" from {CalledFrom}")}" +
              (ByTypeOnly ? " (their stack traces name no collection frame: tied to this table as the only corrupt one)" : "");
}
