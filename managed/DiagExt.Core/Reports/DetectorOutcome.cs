namespace DiagExt.Core.Reports;

public enum DetectorStatus
{
    Ran,
    Skipped,

    /// <summary>The detector threw: its <see cref="DetectorOutcome.Reason"/> says what; the other detectors' findings stand.</summary>
    Failed,
}

/// <summary>What one detector did in one analysis: its findings, or why it did not run (or did not finish).</summary>
public sealed record DetectorOutcome(string Detector, DetectorStatus Status, string? Reason, IReadOnlyList<Finding> Findings, TimeSpan Elapsed)
{
    /// <summary>
    /// Shown only with --verbose: for a failed detector, where it failed (the exception's stack); for one that ran, the
    /// evidence it weighed and set aside, one line each ("thread 0x1a2b not listed: a stale reference to ...").
    /// </summary>
    public string? Detail { get; init; }

    /// <summary>
    /// Skipped because the detector found nothing in this target for it to look for (<see cref="Analysis.IDetector.DoesNotApply"/>),
    /// not because the target could not be read for it: an answer, not an input error. Known only in the analysing process
    /// (the JSON says skipped and the reason); a report read back from JSON has it false.
    /// </summary>
    public bool DoesNotApply { get; init; }

    public static DetectorOutcome NotApplicable(string detector, string reason) =>
        new(detector, DetectorStatus.Skipped, reason, [], TimeSpan.Zero) { DoesNotApply = true };

    /// <summary>What its heap interest cost the shared heap pass; null when it had none there (or did not run).</summary>
    public HeapInterestCost? HeapInterest { get; init; }

    public static DetectorOutcome Failure(string detector, Exception error, TimeSpan elapsed) =>
        new(detector, DetectorStatus.Failed, $"{error.GetType().Name}: {OneLine(error.Message)}", [], elapsed) { Detail = error.StackTrace };

    private static string OneLine(string text) => text.ReplaceLineEndings(" ").Trim();
}
