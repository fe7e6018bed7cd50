using DiagExt.Core.Heap;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Analysis;

/// <summary>
/// What detectors share during one analysis: the target, one heap pass serving every detector's
/// interest, and the cancellation token (Ctrl+C, timeouts).
/// </summary>
public sealed class AnalysisContext
{
    private readonly IReadOnlyCollection<IHeapInterest> _interests;
    private HeapIndex? _heap;

    public AnalysisContext(Target target, IReadOnlyCollection<IHeapInterest> interests, CancellationToken cancellation)
    {
        Target = target;
        _interests = interests;
        Cancellation = cancellation;
    }

    public Target Target { get; }

    public CancellationToken Cancellation { get; }

    /// <summary>The shared heap pass, built on first use for every interest of this run.</summary>
    public HeapIndex Heap => _heap ??= HeapIndex.Build(
        Target.Runtime?.Heap ?? throw new InvalidOperationException("no managed runtime: the heap cannot be walked"),
        _interests,
        Cancellation);

    public bool HeapBuilt => _heap is not null;
}
