/// <summary>Healthy instances of many shapes: none of them may produce a finding.</summary>
static class Healthy
{
    public static readonly List<object> All = [];

    public static void Build()
    {
        foreach (int size in new[] { 0, 1, 3, 17, 100, 10_000 })
        {
            All.Add(Enumerable.Range(0, size).ToDictionary(i => $"key {i}", i => (object)i));
            All.Add(Enumerable.Range(0, size).ToDictionary(i => i, i => i.ToString()));
            All.Add(Enumerable.Range(0, size).ToDictionary(i => new Guid(i, 1, 2, [1, 2, 3, 4, 5, 6, 7, 8]), i => (long)i));
            All.Add(Enumerable.Range(0, size).ToDictionary(i => (i, $"t{i}"), i => (byte)i));
            All.Add(new HashSet<int>(Enumerable.Range(0, size)));
            All.Add(new HashSet<string>(Enumerable.Range(0, size).Select(i => $"s{i}")));
        }

        // Removals put entries on the free list; re-adds take them off again.
        var withRemovals = Enumerable.Range(0, 1000).ToDictionary(i => $"r{i}", i => i);
        for (int i = 0; i < 1000; i += 3)
            withRemovals.Remove($"r{i}");
        for (int i = 0; i < 100; i++)
            withRemovals[$"again{i}"] = i;
        All.Add(withRemovals);

        var setWithRemovals = new HashSet<long>(Enumerable.Range(0, 500).Select(i => (long)i));
        setWithRemovals.RemoveWhere(v => v % 2 == 0);
        All.Add(setWithRemovals);

        // One long chain: every key in the same bucket.
        var colliding = new Dictionary<string, int>(new Collide());
        for (int i = 0; i < 200; i++)
            colliding[$"c{i}"] = i;
        colliding.Remove("c50");
        All.Add(colliding);

        var cleared = Enumerable.Range(0, 50).ToDictionary(i => i, i => i);
        cleared.Clear();
        All.Add(cleared);

        var trimmed = Enumerable.Range(0, 500).ToDictionary(i => i, i => i);
        for (int i = 0; i < 450; i++)
            trimmed.Remove(i);
        trimmed.TrimExcess();
        All.Add(trimmed);

        All.Add(new Dictionary<string, int>(StringComparer.OrdinalIgnoreCase) { ["A"] = 1, ["b"] = 2 });
        All.Add(new NamedMap { ["x"] = 1, ["y"] = 2 });
    }
}

/// <summary>A user's class deriving from Dictionary: DiagExt must see through it.</summary>
sealed class NamedMap : Dictionary<string, int>;
