using System.Collections.Concurrent;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Heap;

/// <summary>
/// Which interests want objects of a given type, asked once per MethodTable and shared by every thread of
/// the heap pass. A heap has thousands of types and millions of objects: the per-object cost is a lookup.
/// </summary>
internal sealed class MethodTableFilter(IHeapInterest[] interests)
{
    private readonly ConcurrentDictionary<ulong, int[]> _wantedBy = new();

    public int Count => interests.Length;

    /// <summary>Indices (into the interests given) of the interests that want objects of <paramref name="type"/>; usually empty.</summary>
    public int[] WantedBy(ClrType type)
    {
        if (_wantedBy.TryGetValue(type.MethodTable, out int[]? wanted))
            return wanted;
        wanted = Enumerable.Range(0, interests.Length).Where(i => interests[i].Wants(type)).ToArray();
        return _wantedBy.GetOrAdd(type.MethodTable, wanted);
    }
}
