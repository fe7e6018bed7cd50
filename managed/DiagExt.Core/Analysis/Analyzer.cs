using System.Diagnostics;
using DiagExt.Core.Heap;
using DiagExt.Core.Reports;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Analysis;

/// <summary>
/// Runs a set of detectors over one target with one shared heap pass. Where the target may be read by several
/// threads (<see cref="Target.Workers"/>), the pass runs on its own thread and the detectors run beside it, each
/// on a thread of its own, reading the pass's finds as they come; else everything runs in turn on this thread.
/// </summary>
public static class Analyzer
{
    /// <param name="leftOut">
    /// Detectors the caller leaves out (by name), each with the reason its outcome gives: neither run nor given a heap
    /// interest, so the pass does none of their work (what the bench's per-detector cost compares against).
    /// </param>
    public static AnalysisReport Run(Target target, IReadOnlyList<IDetector> detectors, CancellationToken cancellation = default,
        IReadOnlyDictionary<string, string>? leftOut = null)
    {
        var total = Stopwatch.StartNew();
        leftOut ??= new Dictionary<string, string>();
        // Decided before the heap pass starts, so a detector that will not run adds no interest to it.
        DetectorOutcome?[] outcomes = detectors.Select(d => BeforeRun(target, d, leftOut)).ToArray();
        int[] order = Enumerable.Range(0, detectors.Count).Where(i => outcomes[i] is null).ToArray();
        IHeapInterest[] interests = order.Select(i => detectors[i].HeapInterest).OfType<IHeapInterest>().ToArray();
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(cancellation);
        var context = new AnalysisContext(target, interests, stop.Token);
        try
        {
            WorkerPool.ForEach(order, target.Workers, i => outcomes[i] = RunOne(target, detectors[i], context), stop.Token);
        }
        catch
        {
            stop.Cancel(); // cancelled (a detector's own failure is its outcome): stop the walk too
            throw;
        }
        finally
        {
            // The walk must not outlive this call: the caller disposes the target next.
            if (context.HeapStarted)
                context.Heap.WaitUntilStopped();
        }

        HeapPassSummary? heapPass = context.HeapStarted && interests.Length > 0
            ? new(context.Heap.ObjectCount, context.Heap.Elapsed, target.Workers > 1) { Walkable = context.Heap.Walkable }
            : null;
        List<DetectorOutcome> all = [.. outcomes.Select((o, i) => WithInterestCost(o!, detectors[i], context))];
        return new AnalysisReport(Summarize(target), all, heapPass?.Objects, total.Elapsed) { HeapPass = heapPass };
    }

    /// <summary>Added once the walk has stopped, so that no detector waits for the walk just to learn what it cost.</summary>
    private static DetectorOutcome WithInterestCost(DetectorOutcome outcome, IDetector detector, AnalysisContext context) =>
        outcome.Status != DetectorStatus.Skipped && context.HeapStarted && detector.HeapInterest is { } interest && context.Heap.CostOf(interest) is { } cost
            ? outcome with { HeapInterest = new HeapInterestCost(cost.Objects, cost.Elapsed) }
            : outcome;

    /// <summary>The outcome of a detector that will not run on this target (left out, skipped, or failed deciding so), or null.</summary>
    private static DetectorOutcome? BeforeRun(Target target, IDetector detector, IReadOnlyDictionary<string, string> leftOut)
    {
        if (SkipReason(target, detector, leftOut) is { } reason)
            return new DetectorOutcome(detector.Name, DetectorStatus.Skipped, reason, [], TimeSpan.Zero);
        try
        {
            FailureInjection.ThrowIfAsked(detector.Name);
            return detector.DoesNotApply(target) is { } why ? DetectorOutcome.NotApplicable(detector.Name, why) : null;
        }
        catch (Exception e) when (e is not OperationCanceledException)
        {
            // The question reads the target like the analysis does: its failure is this detector's, as there.
            return DetectorOutcome.Failure(detector.Name, e, TimeSpan.Zero);
        }
    }

    private static DetectorOutcome RunOne(Target target, IDetector detector, AnalysisContext context)
    {
        var watch = Stopwatch.StartNew();
        AnalysisContext own = context.ForDetector();
        IReadOnlyList<Finding> findings;
        try
        {
            FailureInjection.StallIfAsked(detector.Name, context.Cancellation);
            findings = detector.Analyze(own);
        }
        catch (Exception e) when (!(e is OperationCanceledException && context.Cancellation.IsCancellationRequested))
        {
            // One detector's bug, or a target it cannot read, must not take the others' findings with it.
            return DetectorOutcome.Failure(detector.Name, e, watch.Elapsed);
        }
        // A process read in the middle of a garbage collection has a heap whose objects may be half moved:
        // a finding that is missing must not read as a healthy heap.
        if (detector.HeapInterest is not null && own.HeapStarted && !own.Heap.Walkable)
            own.Note("the runtime says its heap cannot be walked now (the target was read during a garbage collection): objects may be missed; take the dump again");
        // A corrupt length that ends a segment's walk early, or a type ClrMD cannot read, hides objects the same way.
        if (detector.HeapInterest is not null && own.HeapStarted)
            foreach (HeapDamage damage in own.Heap.Damage.Take(3))
                own.Note($"heap damaged: {damage}");
        IReadOnlyList<string> notes = own.TakeNotes();
        IReadOnlyList<string> setAside = own.TakeSetAside();
        return new DetectorOutcome(detector.Name, DetectorStatus.Ran, notes.Count == 0 ? null : string.Join("; ", notes), findings, watch.Elapsed)
        {
            Detail = setAside.Count == 0 ? null : string.Join("\n", setAside),
        };
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
        target.ThreadTimes.UnavailableReason)
    {
        DumpTime = target.DumpTime,
        ProcessStart = target.ProcessStart,
        ProcessImage = target.ProcessImage,
    };

    private static string? SkipReason(Target target, IDetector detector, IReadOnlyDictionary<string, string> leftOut) =>
        leftOut.TryGetValue(detector.Name, out string? asked) ? asked : NeedsReason(target, detector);

    private static string? NeedsReason(Target target, IDetector detector) => detector.Needs switch
    {
        DetectorNeeds.ManagedRuntime when !target.RuntimeStatus.IsLoaded => target.RuntimeStatus.Problem,
        DetectorNeeds.WindowsMinidump when target.Minidump is null => "needs a Windows minidump",
        _ => null,
    };
}
