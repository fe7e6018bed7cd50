using System.Text.Json;
using System.Text.Json.Serialization;

namespace DiagExt.Core.Reports;

/// <summary>
/// An enum as its camelCase name in JSON ("hazard", "ran"). The generic form needs no reflection at run time, so it
/// works in the Native AOT build; source generation's own UseStringEnumConverter keeps the C# names instead.
/// </summary>
public sealed class CamelCaseEnumConverter<TEnum>() : JsonStringEnumConverter<TEnum>(JsonNamingPolicy.CamelCase)
    where TEnum : struct, Enum;
