namespace DiagExt.Core.Reports;

/// <summary>A file a folder walk met that is not a dump (a README, a log): listed, not counted as a failure.</summary>
public sealed record SkippedFile(string Name, string Reason);
