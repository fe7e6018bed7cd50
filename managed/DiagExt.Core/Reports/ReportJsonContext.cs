using System.Text.Json.Serialization;
using DiagExt.Core.Detectors.CtorOrder;
using DiagExt.Core.Detectors.DictCycle;
using DiagExt.Core.Detectors.Hang;
using DiagExt.Core.Detectors.LoaderLock;
using DiagExt.Core.Detectors.WcfHang;

namespace DiagExt.Core.Reports;

/// <summary>
/// The JSON contracts of reports, generated at compile time: no reflection or code emitted at run time, so the
/// JSON costs no JIT at start-up and works in the Native AOT build. The options (names, converters) are
/// <see cref="ReportJson.Options"/>'; this only lists the types. A finding is written as its own record type,
/// which the generator cannot see through <see cref="Finding"/>: each detector's finding record has its line here.
/// </summary>
[JsonSerializable(typeof(ReportDocument))]
[JsonSerializable(typeof(IReadOnlyList<DetectorDocument>))]
[JsonSerializable(typeof(DictCycleFinding))]
[JsonSerializable(typeof(CtorOrderFinding))]
[JsonSerializable(typeof(LoaderLockFinding))]
[JsonSerializable(typeof(WcfHangFinding))]
[JsonSerializable(typeof(HangFinding))]
internal sealed partial class ReportJsonContext : JsonSerializerContext;
