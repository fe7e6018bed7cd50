using System.Text.Json.Serialization;

namespace DiagExt.Core.Reports;

/// <summary>
/// One hazard a detector found: a plain record (what, where, which threads, why, what to do). Detectors
/// create findings and never print; renderers print and never analyse. Subtypes add the detector's own
/// fields, which appear at the top level of the finding's JSON.
/// </summary>
public abstract record Finding
{
    /// <summary>The detector's command name, e.g. "dictcycle"; in JSON it also names the record type to read back.</summary>
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

    public virtual FindingSeverity Severity => FindingSeverity.Hazard;

    /// <summary>Whether it counts as "hazards found" (exit code 1): hazards and warnings do, information does not.</summary>
    [JsonIgnore]
    public bool IsHazard => Severity != FindingSeverity.Information;
}

/// <summary>How sure and how bad a finding is; "hazard", "warning", "information" in JSON.</summary>
public enum FindingSeverity
{
    /// <summary>The target proves the hazard.</summary>
    Hazard,

    /// <summary>A hazard the target does not prove.</summary>
    Warning,

    /// <summary>A fact worth showing that is no hazard by itself: a note.</summary>
    Information,
}
