using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Heap;

/// <summary>The heap pass over one segment: counts its objects and keeps, per interest, those the interest wants.</summary>
internal sealed class HeapSegmentWalk(ClrSegment segment, MethodTableFilter filter)
{
    private readonly List<ClrObject>?[] _found = new List<ClrObject>?[filter.Count];

    public long Objects { get; private set; }

    /// <summary>The objects interest <paramref name="interest"/> wants, in address order.</summary>
    public IReadOnlyList<ClrObject> Found(int interest) => _found[interest] ?? [];

    public void Run(CancellationToken cancellation)
    {
        ulong lastMethodTable = 0;
        int[] wanted = [];
        foreach (ClrObject obj in segment.EnumerateObjects())
        {
            if ((++Objects & 0xFFFF) == 0)
                cancellation.ThrowIfCancellationRequested();
            ClrType? type = obj.Type;
            if (type is null)
                continue;
            // Runs of one type (strings, arrays, the nodes of a list) are common: no lookup for them.
            if (type.MethodTable != lastMethodTable)
            {
                lastMethodTable = type.MethodTable;
                wanted = filter.WantedBy(type);
            }
            foreach (int i in wanted)
                (_found[i] ??= []).Add(obj);
        }
    }
}
