using DiagExt.Core.Heap;
using DiagExt.Core.Reports;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Analysis;

/// <summary>What a detector needs from the target before it can run.</summary>
public enum DetectorNeeds
{
    /// <summary>A loaded .NET runtime (a DAC).</summary>
    ManagedRuntime,

    /// <summary>A Windows minidump read natively (no DAC).</summary>
    WindowsMinidump,

    /// <summary>Nothing beyond an opened target.</summary>
    Nothing,
}

/// <summary>
/// One hazard detector. It reads the target through <see cref="AnalysisContext"/> (shared heap pass,
/// threads read once) and returns findings; it never prints.
/// </summary>
public interface IDetector
{
    /// <summary>The command name: "dictcycle".</summary>
    string Name { get; }

    /// <summary>One line for help output.</summary>
    string Description { get; }

    /// <summary>A paragraph for "diagext help &lt;command&gt;": what it looks for and what it reports.</summary>
    string Explanation { get; }

    DetectorNeeds Needs { get; }

    /// <summary>The heap objects this detector wants from the shared pass, or null if it needs none.</summary>
    IHeapInterest? HeapInterest { get; }

    /// <summary>
    /// The record its findings are and its generated JSON contract (a <c>JsonSerializerContext</c> in the detector's
    /// folder): every report writes its findings with it, and a batch reads a finding's JSON back into it.
    /// </summary>
    FindingContract Contract { get; }

    /// <summary>
    /// On a live process, how long to watch its threads (CPU time, system call) before it is suspended and read: a
    /// detector that says whether blocked threads moved asks for more than the default short window.
    /// </summary>
    TimeSpan LiveSampleWindow => TimeSpan.Zero;

    /// <summary>How it compares a dump series' reports, or null when time adds nothing to what one dump shows.</summary>
    ISeriesJudge? SeriesJudge => null;

    /// <summary>What it offers a live watch, or null when it has nothing cheap enough to look for every few seconds.</summary>
    ILiveWatch? LiveWatch => null;

    /// <summary>
    /// Why this target holds nothing this detector looks for (wcfhang: no WCF client is loaded), or null to run it.
    /// Asked once, after <see cref="Needs"/> is met and before the heap pass; the outcome is then skipped with this
    /// reason, not a note that "nothing applied", and no heap pass starts for this detector. Only for "cannot be
    /// here": what the detector learns by looking (a lock that is free) is a note of its run.
    /// </summary>
    string? DoesNotApply(Target target) => null;

    IReadOnlyList<Finding> Analyze(AnalysisContext context);
}
