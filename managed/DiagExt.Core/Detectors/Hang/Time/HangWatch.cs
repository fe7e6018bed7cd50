using DiagExt.Core.Analysis;
using DiagExt.Core.Reports;
using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// The cheap look 'diagext watch' takes at a live process every interval: each thread's wait from its stack, the
/// lock holders (sync-block table, lock fields), the objects waiting frames reach, the pool's counters; no heap walk
/// and no static-root search (locks are named by address), so the process is stopped for as little as can be. What
/// it reports: deadlocks, thread-pool starvation and blocked chains, the verdicts that two samples can confirm.
/// </summary>
internal sealed class HangWatch : ILiveWatch
{
    public IReadOnlyList<Finding> Look(Target target, CancellationToken cancellation) => Sample(target, cancellation);

    public IReadOnlyList<Finding> Persisting(IReadOnlyList<Finding> before, IReadOnlyList<Finding> now, TimeSpan apart) =>
        Persisting(before.OfType<HangFinding>().ToList(), now.OfType<HangFinding>().ToList(), apart);

    public AnalysisReport Into(AnalysisReport report, IReadOnlyList<Finding> persisting) => WatchVerdicts.Into(report, persisting.OfType<HangFinding>().ToList());

    public static List<HangFinding> Sample(Target target, CancellationToken cancellation)
    {
        if (target.Runtime is null)
            return [];
        var scene = HangScene.ForWatch(target, cancellation);
        WaitGraph graph = WaitGraphBuilder.Build(scene);
        var findings = HangDetector.Verdicts.Where(v => v.InWatch).SelectMany(v => v.Find(graph, scene)).ToList();
        return findings;
    }

    /// <summary>
    /// What is still there in the later of two samples: a deadlock or starvation with the same threads, and a chain
    /// behind the same holder in which no thread moved (same waits; same registers, stack words and CPU time). A chain
    /// that persists comes back as a stuck-chain hazard; the rest as they were.
    /// </summary>
    public static IReadOnlyList<Finding> Persisting(IReadOnlyList<HangFinding> before, IReadOnlyList<HangFinding> now, TimeSpan apart)
    {
        var persisting = new List<Finding>();
        foreach (HangFinding hang in now)
        {
            if (hang.TimeSettles)
            {
                if (before.FirstOrDefault(b => HangIdentity.SameChain(b, hang)) is { } earlier
                    && !ChainSeries.Changes([earlier, hang]).Any())
                    persisting.Add(ChainSeries.Stuck([earlier, hang], apart, "samples"));
            }
            else if (before.Any(b => HangIdentity.SameThreads(b, hang)))
            {
                persisting.Add(hang);
            }
        }
        return persisting;
    }
}
