namespace DiagExt.Core.Findings;

/// <summary>
/// One hazard a detector found: a plain record (what, where, which threads, why, what to do). Detectors
/// create findings and never print; renderers print and never analyse. Subtypes add the detector's own
/// fields, which appear at the top level of the finding's JSON.
/// </summary>
public abstract record Finding
{
    /// <summary>The detector's command name, e.g. "dictcycle".</summary>
    public abstract string Detector { get; }

    /// <summary>A stable machine-readable verdict, e.g. "self-cycle".</summary>
    public required string Kind { get; init; }

    /// <summary>One line naming the hazard.</summary>
    public required string Title { get; init; }

    /// <summary>The verdict in a sentence or two.</summary>
    public required string Summary { get; init; }

    public IReadOnlyList<ThreadRef> Threads { get; init; } = [];

    /// <summary>The facts behind the verdict, one per line, for people.</summary>
    public IReadOnlyList<Markup> Evidence { get; init; } = [];

    /// <summary>What to change.</summary>
    public string? Advice { get; init; }

    /// <summary>
    /// "hazard" (the default), "warning" (a hazard the target does not prove) or "information" (a fact worth
    /// showing that is no hazard by itself: it does not make diagext exit with "hazards found").
    /// </summary>
    public virtual string Severity => FindingSeverity.Hazard;
}

/// <summary>The values of <see cref="Finding.Severity"/>.</summary>
public static class FindingSeverity
{
    public const string Hazard = "hazard";
    public const string Warning = "warning";
    public const string Information = "information";
}
