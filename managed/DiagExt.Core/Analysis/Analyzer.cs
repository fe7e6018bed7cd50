using System.Diagnostics;
using DiagExt.Core.Findings;
using DiagExt.Core.Heap;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Analysis;

/// <summary>Runs a set of detectors over one target with one shared heap pass.</summary>
public static class Analyzer
{
    public static AnalysisReport Run(Target target, IReadOnlyList<IDetector> detectors, CancellationToken cancellation = default)
    {
        var total = Stopwatch.StartNew();
        var runnable = detectors.Where(d => SkipReason(target, d) is null).ToList();
        IHeapInterest[] interests = runnable.Select(d => d.HeapInterest).OfType<IHeapInterest>().ToArray();
        var context = new AnalysisContext(target, interests, cancellation);
        // The one heap pass, up front, so each detector's time is its own work and the pass is timed once.
        HeapPassSummary? heapPass = interests.Length > 0 && target.Runtime is not null ? new(context.Heap.ObjectCount, context.Heap.Elapsed, context.Heap.Workers) : null;

        var outcomes = new List<DetectorOutcome>();
        foreach (IDetector detector in detectors)
        {
            cancellation.ThrowIfCancellationRequested();
            if (SkipReason(target, detector) is { } reason)
            {
                outcomes.Add(new DetectorOutcome(detector.Name, DetectorStatus.Skipped, reason, [], TimeSpan.Zero));
                continue;
            }
            var watch = Stopwatch.StartNew();
            IReadOnlyList<Finding> findings = detector.Analyze(context);
            IReadOnlyList<string> notes = context.TakeNotes();
            outcomes.Add(new DetectorOutcome(detector.Name, DetectorStatus.Ran, notes.Count == 0 ? null : string.Join("; ", notes), findings, watch.Elapsed));
        }

        return new AnalysisReport(Summarize(target), outcomes, heapPass?.Objects, total.Elapsed) { HeapPass = heapPass };
    }

    public static TargetSummary Summarize(Target target) => new(
        target.DisplayName,
        target.Kind,
        target.Platform,
        target.Architecture,
        target.ProcessId,
        target.Threads.Count,
        target.RuntimeStatus,
        target.ThreadTimes.Available ? target.ThreadTimes.Source : null,
        target.ThreadTimes.UnavailableReason);

    private static string? SkipReason(Target target, IDetector detector) => detector.Needs switch
    {
        DetectorNeeds.ManagedRuntime when !target.RuntimeStatus.IsLoaded => target.RuntimeStatus.Problem,
        DetectorNeeds.WindowsMinidump when target.Minidump is null => "needs a Windows minidump",
        _ => null,
    };
}
