using DiagExt.Core.Targets.Sources;

namespace DiagExt.Cli.Batch;

/// <summary>One dump a batch will report on: where it is, its size once unpacked (when known), or why it cannot be analysed at all.</summary>
public sealed record DumpCandidate(DumpSource Source, long? Length, string? Problem = null)
{
    public string Name => Source.DisplayName;

    /// <summary>SHA-256 of its content, once <see cref="DuplicateGrouper"/> has read it (only dumps of a size some other has).</summary>
    public string? ContentHash { get; init; }
}
