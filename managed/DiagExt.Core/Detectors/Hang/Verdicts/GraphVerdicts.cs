using DiagExt.Core.Reports;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// What the wait-for graph alone says: each knot of threads waiting for each other's locks is a deadlock (with the
/// threads that wait on it from outside as bystanders), and each chain of two or more threads behind one that is not
/// waiting for a lock is a blocked chain. Shared by the detector and by a live watch's cheap samples.
/// </summary>
internal sealed class GraphVerdicts : IHangVerdict
{
    public bool InWatch => true;

    public IEnumerable<HangFinding> Find(WaitGraph graph, HangScene scene) => Find(graph, scene.Threads, scene.Naming(graph.Locks.Keys.ToHashSet()));

    public static List<HangFinding> Find(WaitGraph graph, ThreadIndex index, LockNames names)
    {
        IReadOnlyList<IReadOnlyList<uint>> knots = CycleFinder.Knots(graph.Waits.Keys.ToList(), graph.Blockers);
        var inKnot = knots.SelectMany(k => k).ToHashSet();
        var reaching = Reaching(graph, inKnot);
        var findings = new List<HangFinding>();
        foreach (IReadOnlyList<uint> knot in knots)
        {
            var members = knot.ToHashSet();
            var bystanders = reaching.Where(r => r.Value.Overlaps(members)).Select(r => r.Key).OrderBy(t => t).ToList();
            findings.Add(DeadlockFindingBuilder.Build(knot, graph, index, bystanders, names));
        }
        findings.AddRange(BlockedChains.Find(graph, index, inKnot, reaching.Keys.ToHashSet(), names));
        return findings;
    }

    /// <summary>For each thread outside the knots, the knot threads its chain of blockers reaches (bounded by the thread count).</summary>
    private static Dictionary<uint, HashSet<uint>> Reaching(WaitGraph graph, HashSet<uint> inKnot)
    {
        var result = new Dictionary<uint, HashSet<uint>>();
        foreach (uint start in graph.Waits.Keys)
        {
            if (inKnot.Contains(start))
                continue;
            var seen = new HashSet<uint> { start };
            var reached = new HashSet<uint>();
            var queue = new Queue<uint>([start]);
            while (queue.Count > 0)
                foreach (uint b in graph.Blockers(queue.Dequeue()))
                {
                    if (inKnot.Contains(b))
                        reached.Add(b);
                    else if (seen.Add(b))
                        queue.Enqueue(b);
                }
            if (reached.Count > 0)
                result[start] = reached;
        }
        return result;
    }
}
