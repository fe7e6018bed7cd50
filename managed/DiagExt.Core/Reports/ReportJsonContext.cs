using System.Text.Json.Serialization;

namespace DiagExt.Core.Reports;

/// <summary>
/// The JSON contracts of reports, generated at compile time: no reflection or code emitted at run time, so the
/// JSON costs no JIT at start-up and works in the Native AOT build. The options (names, converters) are
/// <see cref="ReportJson.Options"/>'; this only lists the types. A finding is written as its own record type,
/// which the generator cannot see through <see cref="Finding"/>: each detector's folder has a context of its own for
/// its record (<see cref="FindingContract"/>).
/// </summary>
[JsonSerializable(typeof(ReportDocument))]
[JsonSerializable(typeof(IReadOnlyList<DetectorDocument>))]
internal sealed partial class ReportJsonContext : JsonSerializerContext;
