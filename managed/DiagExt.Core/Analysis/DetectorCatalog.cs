using DiagExt.Core.Detectors.DictCycle;

namespace DiagExt.Core.Analysis;

/// <summary>Every detector DiagExt has, in the order <c>analyze</c> runs them.</summary>
public static class DetectorCatalog
{
    public static IReadOnlyList<IDetector> CreateAll() =>
    [
        new DictCycleDetector(),
    ];

    public static IDetector? Find(string name) => CreateAll().FirstOrDefault(d => d.Name == name);
}
