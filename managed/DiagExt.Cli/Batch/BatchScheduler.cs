using DiagExt.Core.Rendering.Batch;
using DiagExt.Core.Reports;
using DiagExt.Core.Targets;

namespace DiagExt.Cli.Batch;

/// <summary>
/// Runs the analyses of a batch in parallel: at most --jobs at once, within the memory budget, largest
/// dumps first (so a big one does not start last and stretch the wall time). Each analysis is its own
/// process with its own timeout; a failure of one never stops the others. Ctrl+C stops them all.
/// </summary>
public static class BatchScheduler
{
    private static readonly TimeSpan TickInterval = TimeSpan.FromMilliseconds(250);

    public static async Task<IReadOnlyDictionary<DumpGroup, WorkerOutcome>> RunAsync(
        IReadOnlyList<DumpGroup> groups, BatchSettings settings, BatchProgress progress, CancellationToken cancellation)
    {
        var budget = new MemoryBudget(settings.MemoryBudget);
        var pending = groups.OrderByDescending(g => g.Primary.Length ?? 0).ToList();
        var running = new Dictionary<Task<WorkerOutcome>, (DumpGroup Group, long Reserved)>();
        var outcomes = new Dictionary<DumpGroup, WorkerOutcome>(ReferenceEqualityComparer.Instance);

        while (pending.Count > 0 || running.Count > 0)
        {
            while (running.Count < settings.Jobs && !cancellation.IsCancellationRequested)
            {
                if (Next(pending, budget, running.Count == 0, settings) is not { } next)
                    break;
                pending.Remove(next.Group);
                progress.Started(next.Group.Primary.Name);
                running[WorkerProcess.RunAsync(next.Group.Primary, settings, cancellation)] = next;
            }
            if (running.Count == 0)
                break; // cancelled before the rest could start

            Task tick = Task.Delay(TickInterval, CancellationToken.None);
            Task finished = await Task.WhenAny(running.Keys.Cast<Task>().Append(tick)).ConfigureAwait(false);
            if (finished is Task<WorkerOutcome> done)
            {
                var (group, reserved) = running[done];
                running.Remove(done);
                budget.Release(reserved);
                WorkerOutcome outcome = await done.ConfigureAwait(false);
                outcomes[group] = outcome;
                progress.Finished(group.Primary.Name, Describe(outcome));
            }
            progress.Tick();
        }
        foreach (DumpGroup group in pending)
            outcomes[group] = new WorkerOutcome(DumpStatus.Cancelled, "cancelled before its analysis started", null, TimeSpan.Zero, null);
        return outcomes;
    }

    /// <summary>The first pending dump whose memory estimate fits (a failed input needs none).</summary>
    private static (DumpGroup Group, long Reserved)? Next(List<DumpGroup> pending, MemoryBudget budget, bool nothingRunning, BatchSettings settings)
    {
        foreach (DumpGroup group in pending)
        {
            long estimate = group.Primary.Problem is null ? MemoryBudget.Estimate(group.Primary, settings.Limits) : 0;
            if (budget.TryReserve(estimate, nothingRunning))
                return (group, estimate);
        }
        return null;
    }

    private static string Describe(WorkerOutcome outcome)
    {
        string result = BatchWords.Result(new DumpResult { Name = "", Status = outcome.Status, Report = outcome.Report });
        string error = outcome.Error is null ? "" : $": {outcome.Error}";
        return $"{result}{error} ({outcome.Elapsed.TotalSeconds:0.0}s)";
    }
}
