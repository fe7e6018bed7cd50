using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// Whether a continuation already posted to a context sits in that context's own objects: a breadth-first walk of the
/// references from the context object (its queue, the queue's segments, the queued item, the MoveNext delegate) to the
/// async method's box. WinForms and WPF post to a native message queue this cannot read: there the walk finds nothing
/// and the finding rests on the other proofs. Bounded in objects and depth; Thread objects are not entered (they lead
/// to every context).
/// </summary>
internal static class ContextQueue
{
    public const int MaxObjects = 20_000;
    public const int MaxDepth = 16;
    private const int MaxReferencesPerObject = 4096;

    /// <summary>The types from the context to the box ("OneThreadContext -> BlockingCollection&lt;..&gt; -> ... -> Action"), or null.</summary>
    public static string? PathTo(ClrHeap heap, ulong context, ulong box)
    {
        var parent = new Dictionary<ulong, ulong> { [context] = 0 };
        var depth = new Dictionary<ulong, int> { [context] = 0 };
        var queue = new Queue<ulong>([context]);
        while (queue.Count > 0 && parent.Count < MaxObjects)
        {
            ulong at = queue.Dequeue();
            if (depth[at] >= MaxDepth)
                continue;
            foreach (ClrObject next in References(heap, at))
            {
                if (next.Address == box)
                {
                    parent[box] = at;
                    return Path(heap, parent, box);
                }
                if (parent.ContainsKey(next.Address) || next.Type is not { } type || type.Name == HangNames.Thread || type.IsString)
                    continue;
                parent[next.Address] = at;
                depth[next.Address] = depth[at] + 1;
                queue.Enqueue(next.Address);
            }
        }
        return null;
    }

    private static string Path(ClrHeap heap, Dictionary<ulong, ulong> parent, ulong box)
    {
        var names = new List<string>();
        for (ulong at = parent[box]; at != 0 && names.Count <= MaxDepth + 1; at = parent[at])
            names.Add(Short(heap, at));
        names.Reverse();
        return string.Join(" -> ", names);
    }

    /// <summary>Generic arguments left out: the queue's element types make the path unreadable and say nothing more.</summary>
    private static string Short(ClrHeap heap, ulong address)
    {
        string name = TypeNames.Short(ObjectTypes.Of(heap, address)?.Name ?? "?");
        int open = name.IndexOf('<');
        return open > 0 ? name[..open] + (name.EndsWith("[]", StringComparison.Ordinal) ? "<..>[]" : "<..>") : name;
    }

    private static IEnumerable<ClrObject> References(ClrHeap heap, ulong address)
    {
        List<ClrObject> found;
        try
        {
            if (ObjectTypes.Of(heap, address) is not { ContainsPointers: true } type)
                return [];
            ClrObject obj = heap.GetObject(address, type);
            found = obj.EnumerateReferences(carefully: true, considerDependantHandles: false).Take(MaxReferencesPerObject).ToList();
        }
        catch (Exception e) when (e is InvalidOperationException or ArgumentException or IOException or OverflowException)
        {
            return [];
        }
        return found;
    }
}
