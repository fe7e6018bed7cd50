using System.Globalization;
using DiagExt.Core.Reports;

namespace DiagExt.Core.Rendering;

/// <summary>
/// Where an analysis's time went, for --verbose: start-up and opening, the heap pass, and each detector that ran with
/// the share of the heap pass its interest took (deciding its types, handing it its objects), which its own time does
/// not include when the pass runs beside it.
/// </summary>
public static class PhaseLines
{
    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    public static IEnumerable<string> Of(AnalysisReport report)
    {
        if (report.Startup is { } startup)
            yield return string.Format(Invariant, "phase: process start {0:0} ms, open {1:0} ms", startup.ProcessStart.TotalMilliseconds, startup.Open.TotalMilliseconds);
        if (report.HeapPass is { } pass)
            yield return string.Format(Invariant, "phase: heap pass {0:0} ms, {1:N0} objects, {2}", pass.Elapsed.TotalMilliseconds, pass.Objects,
                pass.Background ? "on its own thread beside the detectors" : "before the detectors");
        foreach (DetectorOutcome outcome in report.Outcomes.Where(o => o.Status != DetectorStatus.Skipped))
        {
            string interest = outcome.HeapInterest is { } cost
                ? string.Format(Invariant, "; its heap interest {0:0.0} ms of the heap pass ({1:N0} objects)", cost.Elapsed.TotalMilliseconds, cost.Objects)
                : "";
            yield return string.Format(Invariant, "phase: {0} {1:0} ms{2}", outcome.Detector, outcome.Elapsed.TotalMilliseconds, interest);
        }
    }
}
