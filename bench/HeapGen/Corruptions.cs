/// <summary>
/// A few corrupt tables among the healthy ones, each held by a static field, as the hazard looks in
/// production: the bench checks that <c>analyze</c> still finds exactly these.
/// </summary>
static class Corruptions
{
    public static Dictionary<string, int>? SelfCycle;
    public static HashSet<int>? Cycle;
    public static Dictionary<int, int>? Orphaned;
    public static Registry? NextOutOfRange;

    /// <summary>Builds the corrupt instances and returns how many findings they must produce.</summary>
    public static int Build()
    {
        SelfCycle = new Dictionary<string, int>(new Collide()) { ["a"] = 1, ["b"] = 2, ["c"] = 3, ["d"] = 4 };
        Tamper.SetNext(SelfCycle, 1, 1);

        // int members hash to themselves: 0, 7, 14, 21 share bucket 0 of a 7-bucket set.
        Cycle = [0, 7, 14, 21];
        Tamper.SetNext(Cycle, 0, 2);

        Orphaned = new Dictionary<int, int> { [0] = 0, [7] = 7, [14] = 14, [21] = 21 };
        Tamper.SetNext(Orphaned, 2, 0);

        NextOutOfRange = new Registry { ["x"] = 1, ["y"] = 2, ["z"] = 3 };
        Tamper.SetNext(NextOutOfRange, 0, 1000);
        return 4;
    }
}
