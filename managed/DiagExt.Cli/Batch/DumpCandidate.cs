using DiagExt.Core.Targets.Sources;

namespace DiagExt.Cli.Batch;

/// <summary>One dump a batch will report on: where it is, its size once unpacked (when known), or why it cannot be analysed at all.</summary>
public sealed record DumpCandidate(DumpSource Source, long? Length, string? Problem = null)
{
    public string Name => Source.DisplayName;
}
