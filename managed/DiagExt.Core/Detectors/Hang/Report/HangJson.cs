using System.Text.Json.Serialization;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>The JSON contract of <see cref="HangFinding"/>, generated at compile time (no reflection: Native AOT).</summary>
[JsonSerializable(typeof(HangFinding))]
internal sealed partial class HangJson : JsonSerializerContext;
