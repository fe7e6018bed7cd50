using DiagExt.Core.Reports;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// Puts what 'diagext watch' saw in two looks into the report of the dump it then wrote: a chain the dump alone can only
/// note becomes the stuck-chain the looks proved; a deadlock or starvation the dump no longer shows (it cleared while the
/// dump was written) is kept as the looks saw it, since it was there in both.
/// </summary>
internal static class WatchVerdicts
{
    public static AnalysisReport Into(AnalysisReport report, IReadOnlyList<HangFinding> seen)
    {
        var outcomes = report.Outcomes.Select(o => o.Detector != HangDetector.CommandName || o.Status != DetectorStatus.Ran ? o : o with { Findings = Merge(o.Findings, seen) }).ToList();
        return report with { Outcomes = outcomes };
    }

    private static List<Finding> Merge(IReadOnlyList<Finding> found, IReadOnlyList<HangFinding> seen)
    {
        var merged = found.ToList();
        foreach (HangFinding hang in seen)
        {
            int same = merged.FindIndex(f => f is HangFinding h && SameHang(h, hang));
            if (same < 0)
                merged.Add(hang);
            else if (hang.Kind == HangDetector.StuckChain)
                merged[same] = ChainSeries.Restate(hang, (HangFinding)merged[same]); // the dump's note on this chain, settled by the looks
        }
        return merged;
    }

    /// <summary>A stuck chain the looks proved matches the dump's note on the chain ending at the same thread.</summary>
    private static bool SameHang(HangFinding inDump, HangFinding seen) =>
        seen.Kind == HangDetector.StuckChain
            ? inDump.TimeSettles && HangIdentity.SameHolder(inDump, seen)
            : HangIdentity.SameThreads(inDump, seen);
}
