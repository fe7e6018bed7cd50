using DiagExt.Core.Reports;

namespace DiagExt.Fuzz.Targets.Dml;

/// <summary>A finding whose every string came from the fuzz input, with a detector-specific field as real findings have.</summary>
public sealed record FuzzFinding : Finding
{
    public override string Detector => "fuzz";

    /// <summary>Serialised at the top level of the finding, like a type name or a module name of a real detector.</summary>
    public string? TargetText { get; init; }
}
