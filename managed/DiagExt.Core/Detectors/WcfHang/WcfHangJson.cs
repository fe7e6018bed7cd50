using System.Text.Json.Serialization;

namespace DiagExt.Core.Detectors.WcfHang;

/// <summary>The JSON contract of <see cref="WcfHangFinding"/>, generated at compile time (no reflection: Native AOT).</summary>
[JsonSerializable(typeof(WcfHangFinding))]
internal sealed partial class WcfHangJson : JsonSerializerContext;
