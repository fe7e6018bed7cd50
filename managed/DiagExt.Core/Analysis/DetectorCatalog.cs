using DiagExt.Core.Detectors.CtorOrder;
using DiagExt.Core.Detectors.DictCycle;
using DiagExt.Core.Detectors.LoaderLock;
using DiagExt.Core.Detectors.WcfHang;

namespace DiagExt.Core.Analysis;

/// <summary>Every detector DiagExt has, in the order <c>analyze</c> runs them.</summary>
public static class DetectorCatalog
{
    public static IReadOnlyList<IDetector> CreateAll() =>
    [
        new DictCycleDetector(),
        new CtorOrderDetector(),
        new LoaderLockDetector(),
        new WcfHangDetector(),
    ];

    public static IDetector? Find(string name) => CreateAll().FirstOrDefault(d => d.Name == name);
}
