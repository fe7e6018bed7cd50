using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Heap;

/// <summary>
/// Which interests want objects of a given type, asked once per MethodTable. A heap has thousands of types
/// and millions of objects: the per-object cost is a compare with the previous object's MethodTable and,
/// when it differs, one lookup.
/// </summary>
internal sealed class MethodTableFilter(IHeapInterest[] interests)
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
            wanted = Enumerable.Range(0, interests.Length).Where(i => interests[i].Wants(type)).ToArray();
            _wantedBy.Add(type.MethodTable, wanted);
        }
        _lastMethodTable = type.MethodTable;
        _lastWanted = wanted;
        return wanted;
    }
}
