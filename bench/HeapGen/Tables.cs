/// <summary>
/// The dictionaries and hash sets: one big Dictionary&lt;string, int&gt; (the one that must be classified in
/// under a second), a few large ones, and thousands of smaller ones of log-spread sizes and mixed
/// instantiations, some with removals (free lists in use).
/// </summary>
sealed class Tables(HeapPlan plan)
{
    private readonly List<object> _all = [];
    private readonly Random _random = new(8);

    public static Dictionary<string, int>? Big;

    public int Count => _all.Count;

    public long Entries { get; private set; }

    public void Build()
    {
        Big = new Dictionary<string, int>(plan.BigEntries);
        for (int i = 0; i < plan.BigEntries; i++)
            Big.Add($"customer/{i}", i);
        Entries += Big.Count;

        for (int t = 0; t < plan.LargeTables.Length; t++)
            Add(t, plan.LargeTables[t]);
        for (int t = 0; t < plan.Tables; t++)
            Add(t, (int)Math.Pow(2, _random.NextDouble() * plan.MaxTableSizeLog2) - 1);
    }

    private void Add(int kind, int size)
    {
        object table = (kind % 7) switch
        {
            0 => Fill(new Dictionary<int, int>(), size, i => (i * 7919, i)),
            1 => Fill(new Dictionary<string, object>(), size, i => ($"k{kind}/{i}", (object)i)),
            2 => FillSet(new HashSet<int>(), size, i => i * 31),
            3 => FillSet(new HashSet<string>(), size, i => $"member {i}"),
            4 => Fill(new Dictionary<Guid, long>(), size, i => (new Guid(i, 3, 5, [1, 2, 3, 4, 5, 6, 7, 8]), (long)i)),
            5 => Fill(new Dictionary<long, string>(), size, i => ((long)i << 20, $"v{i}")),
            _ => Fill(new Registry(), size, i => ($"name {i}", i)),
        };
        if (size > 8 && kind % 3 == 0)
            RemoveSome(table);
        _all.Add(table);
        Entries += size;
    }

    private static T Fill<T, TKey, TValue>(T table, int size, Func<int, (TKey, TValue)> entry) where T : Dictionary<TKey, TValue> where TKey : notnull
    {
        for (int i = 0; i < size; i++)
        {
            (TKey key, TValue value) = entry(i);
            table[key] = value;
        }
        return table;
    }

    private static HashSet<T> FillSet<T>(HashSet<T> set, int size, Func<int, T> member)
    {
        for (int i = 0; i < size; i++)
            set.Add(member(i));
        return set;
    }

    /// <summary>Removes every fifth key: those entries go on the free list, as in a long-running cache.</summary>
    private static void RemoveSome(object table)
    {
        switch (table)
        {
            case Dictionary<int, int> d:
                foreach (int key in d.Keys.Where((_, i) => i % 5 == 0).ToList())
                    d.Remove(key);
                break;
            case HashSet<string> s:
                s.RemoveWhere(v => v.EndsWith('5'));
                break;
            case Dictionary<long, string> d:
                foreach (long key in d.Keys.Where((_, i) => i % 5 == 0).ToList())
                    d.Remove(key);
                break;
        }
    }
}

/// <summary>A user class deriving from Dictionary, as real code has.</summary>
sealed class Registry : Dictionary<string, int>;
