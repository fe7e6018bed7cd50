using System.Text.Json.Serialization.Metadata;

namespace DiagExt.Core.Reports;

/// <summary>
/// How one detector's finding record is written and read as JSON: its record type and the contracts the source
/// generator made for it (a <c>JsonSerializerContext</c> in the detector's own folder, listing that one record).
/// </summary>
public sealed record FindingContract(string Detector, Type FindingType, IJsonTypeInfoResolver Resolver);
