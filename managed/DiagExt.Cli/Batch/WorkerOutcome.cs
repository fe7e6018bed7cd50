using System.Text.Json;
using DiagExt.Core.Batch;

namespace DiagExt.Cli.Batch;

/// <summary>How one analysing process ended: the report it printed, or why there is none.</summary>
public sealed record WorkerOutcome(DumpStatus Status, string? Error, JsonElement? Report, TimeSpan Elapsed, long? PeakMemoryBytes);
