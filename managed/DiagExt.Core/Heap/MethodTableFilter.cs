using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Heap;

/// <summary>
/// Which interests want objects of a given type, asked once per MethodTable. A heap has thousands of types
/// and millions of objects: the per-object cost is a compare with the previous object's MethodTable and,
/// when it differs, one lookup. A type ClrMD cannot read (<see cref="CorruptType"/>) is wanted by none, and said
/// in <paramref name="damage"/>.
/// </summary>
internal sealed class MethodTableFilter(IHeapInterest[] interests, List<HeapDamage> damage)
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
            return Enumerable.Range(0, interests.Length).Where(i => interests[i].Wants(type)).ToArray();
        }
        catch (Exception e) when (CorruptType.Is(e))
        {
            damage.Add(new HeapDamage.UnreadableType(type.MethodTable, CorruptType.Describe(e)));
            return [];
        }
    }
}
