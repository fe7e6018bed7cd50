using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Heap;

/// <summary>
/// Which interests want objects of a given type, asked once per MethodTable. A heap has thousands of types
/// and millions of objects: the per-object cost is a compare with the previous object's MethodTable and,
/// when it differs, one lookup. A type ClrMD cannot read (<see cref="CorruptType"/>) is wanted by none, and said
/// in <paramref name="damage"/>. Each interest's <see cref="IHeapInterest.Wants"/> is timed into <paramref name="clock"/>.
/// </summary>
internal sealed class MethodTableFilter(IHeapInterest[] interests, List<HeapDamage> damage, InterestClock clock)
{
    private readonly Dictionary<ulong, int[]> _wantedBy = [];
    private ulong _lastMethodTable;
    private int[] _lastWanted = [];

    /// <summary>Indices (into the interests given) of the interests that want objects of <paramref name="type"/>; usually empty.</summary>
    public int[] WantedBy(ClrType type)
    {
        // Runs of one type (strings, arrays, the nodes of a list) are common: no lookup for them.
        if (type.MethodTable == _lastMethodTable)
            return _lastWanted;
        if (!_wantedBy.TryGetValue(type.MethodTable, out int[]? wanted))
        {
            wanted = Classify(type);
            _wantedBy.Add(type.MethodTable, wanted);
        }
        _lastMethodTable = type.MethodTable;
        _lastWanted = wanted;
        return wanted;
    }

    private int[] Classify(ClrType type)
    {
        try
        {
            // ClrMD reads a type's name from the DAC once, when first asked, and every interest asks: read here, outside
            // every interest's time, or the first interest asked would be charged for all (57 of its 57 ms on a small dump).
            _ = type.Name;
            var wanted = new List<int>(1);
            long start = InterestClock.Now;
            for (int i = 0; i < interests.Length; i++)
            {
                bool wants = interests[i].Wants(type);
                start = clock.ChargeType(i, start);
                if (wants)
                    wanted.Add(i);
            }
            return [.. wanted];
        }
        catch (Exception e) when (CorruptType.Is(e))
        {
            damage.Add(new HeapDamage.UnreadableType(type.MethodTable, CorruptType.Describe(e)));
            return [];
        }
    }
}
