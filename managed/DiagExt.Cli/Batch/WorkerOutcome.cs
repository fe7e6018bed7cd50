using DiagExt.Core.Reports;

namespace DiagExt.Cli.Batch;

/// <summary>How one analysing process ended: the report it printed, or why there is none.</summary>
public sealed record WorkerOutcome(DumpStatus Status, string? Error, AnalysisReport? Report, TimeSpan Elapsed, long? PeakMemoryBytes);
