using DiagExt.Core.Analysis;
using DiagExt.Core.Detectors.CtorOrder;
using DiagExt.Core.Detectors.DictCycle;
using DiagExt.Core.Detectors.Hang;
using DiagExt.Core.Detectors.LoaderLock;
using DiagExt.Core.Detectors.WcfHang;
using DiagExt.Core.Reports;

namespace DiagExt.Core.Catalog;

/// <summary>
/// Every detector DiagExt has, in the order <c>analyze</c> runs them. A new detector is one line here: the
/// commands, help, batch columns, JSON reading and every renderer take it from this list.
/// </summary>
public static class DetectorCatalog
{
    public static IReadOnlyList<IDetector> CreateAll() =>
    [
        new DictCycleDetector(),
        new CtorOrderDetector(),
        new LoaderLockDetector(),
        new WcfHangDetector(),
        new HangDetector(),
    ];

    public static IDetector? Find(string name) => CreateAll().FirstOrDefault(d => d.Name == name);

    /// <summary>Reports as JSON with every detector's finding contract: what --json writes and a batch reads.</summary>
    public static ReportJson Json { get; } = new(CreateAll().Select(d => d.Contract));
}
