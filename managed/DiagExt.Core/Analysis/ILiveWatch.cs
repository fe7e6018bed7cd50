using DiagExt.Core.Reports;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Analysis;

/// <summary>
/// What a detector offers 'diagext watch': a cheap look at a live process (no heap pass), which of its findings are
/// still there in the next look, and how those go into the report of the dump the watch then writes.
/// </summary>
public interface ILiveWatch
{
    /// <summary>One look at a stopped live process: what can be judged without walking the heap.</summary>
    IReadOnlyList<Finding> Look(Target target, CancellationToken cancellation);

    /// <summary>What of <paramref name="now"/> was there in <paramref name="before"/>, taken <paramref name="apart"/> earlier: the hangs that persist.</summary>
    IReadOnlyList<Finding> Persisting(IReadOnlyList<Finding> before, IReadOnlyList<Finding> now, TimeSpan apart);

    /// <summary>The dump's report with what the looks proved put in.</summary>
    AnalysisReport Into(AnalysisReport report, IReadOnlyList<Finding> persisting);
}
