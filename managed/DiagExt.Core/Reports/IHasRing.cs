namespace DiagExt.Core.Reports;

/// <summary>One node of a ring a finding describes (a deadlock's cycle) and what leads from it to the next.</summary>
public sealed record RingStep(string Node, string EdgeToNext);

/// <summary>
/// A finding whose heart is a cycle (each node waits for the next, the last for the first): renderers that can draw
/// (the batch HTML report) draw it, without knowing which detector it came from.
/// </summary>
public interface IHasRing
{
    IReadOnlyList<RingStep> Ring { get; }
}
