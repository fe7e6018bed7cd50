namespace DiagExt.Core.Reports;

/// <summary>
/// What one detector's heap interest cost the shared heap pass: the objects handed to it and the time the pass spent
/// deciding its types and handing them over (bench/run.sh and --verbose show it beside the detector's own time).
/// </summary>
public sealed record HeapInterestCost(long Objects, TimeSpan Elapsed);
