namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// Cycles in the wait-for graph: Tarjan's strongly connected components, iterative (no recursion a deep chain could
/// overflow), each node visited once, so a graph built from hostile data (an owner that is itself, edges that loop)
/// ends in O(nodes + edges). A component of two or more threads, or one thread blocked by itself, is a deadlock.
/// </summary>
internal static class CycleFinder
{
    public static IReadOnlyList<IReadOnlyList<uint>> Knots(IReadOnlyCollection<uint> nodes, Func<uint, IReadOnlyList<uint>> edges)
    {
        var index = new Dictionary<uint, int>();
        var low = new Dictionary<uint, int>();
        var onStack = new HashSet<uint>();
        var stack = new Stack<uint>();
        var result = new List<IReadOnlyList<uint>>();
        int next = 0;
        foreach (uint root in nodes.OrderBy(n => n))
        {
            if (index.ContainsKey(root))
                continue;
            var work = new Stack<(uint Node, int Edge)>();
            work.Push((root, 0));
            index[root] = low[root] = next++;
            stack.Push(root);
            onStack.Add(root);
            while (work.Count > 0)
            {
                (uint node, int edge) = work.Pop();
                IReadOnlyList<uint> targets = edges(node);
                if (edge < targets.Count)
                {
                    work.Push((node, edge + 1));
                    uint target = targets[edge];
                    if (!index.ContainsKey(target))
                    {
                        index[target] = low[target] = next++;
                        stack.Push(target);
                        onStack.Add(target);
                        work.Push((target, 0));
                    }
                    else if (onStack.Contains(target))
                        low[node] = Math.Min(low[node], index[target]);
                    continue;
                }
                if (work.Count > 0)
                {
                    uint parent = work.Peek().Node;
                    low[parent] = Math.Min(low[parent], low[node]);
                }
                if (low[node] != index[node])
                    continue;
                var component = new List<uint>();
                uint member;
                do
                {
                    member = stack.Pop();
                    onStack.Remove(member);
                    component.Add(member);
                }
                while (member != node);
                if (component.Count > 1 || edges(node).Contains(node))
                    result.Add(component);
            }
        }
        return result;
    }

    /// <summary>
    /// One simple cycle through a component, in wait order (each waits for the next; the last for the first), from its
    /// lowest thread id, so two dumps of one hang print it alike. Bounded by the component's size.
    /// </summary>
    public static IReadOnlyList<uint> OrderedCycle(IReadOnlyList<uint> knot, Func<uint, IReadOnlyList<uint>> edges)
    {
        var members = knot.ToHashSet();
        var path = new List<uint>();
        var position = new Dictionary<uint, int>();
        uint node = knot.Min();
        while (!position.ContainsKey(node) && path.Count <= knot.Count)
        {
            position[node] = path.Count;
            path.Add(node);
            uint? nextNode = null;
            foreach (uint e in edges(node))
                if (members.Contains(e))
                {
                    nextNode = e;
                    break;
                }
            if (nextNode is not { } n)
                return path; // cannot happen in a strongly connected component; hostile data must still end
            node = n;
        }
        var cycle = position.TryGetValue(node, out int start) ? path.Skip(start).ToList() : path;
        // Start from the lowest id of the cycle itself.
        int lowest = cycle.IndexOf(cycle.Min());
        return [.. cycle.Skip(lowest), .. cycle.Take(lowest)];
    }
}
