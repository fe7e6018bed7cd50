namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// One question asked of the finished graph (is there a cycle, a starved pool, a wait nothing can end, ...): returns
/// its findings, prints nothing. The detector asks every verdict in <see cref="HangDetector.Verdicts"/>; a watch's
/// cheap look only those whose <see cref="InWatch"/> is true.
/// </summary>
internal interface IHangVerdict
{
    /// <summary>Whether it needs only threads and lock holders (no heap pass, no names): a watch asks it every look.</summary>
    bool InWatch { get; }

    IEnumerable<HangFinding> Find(WaitGraph graph, HangScene scene);
}
