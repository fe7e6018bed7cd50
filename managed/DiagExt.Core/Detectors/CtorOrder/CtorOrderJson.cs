using System.Text.Json.Serialization;

namespace DiagExt.Core.Detectors.CtorOrder;

/// <summary>The JSON contract of <see cref="CtorOrderFinding"/>, generated at compile time (no reflection: Native AOT).</summary>
[JsonSerializable(typeof(CtorOrderFinding))]
internal sealed partial class CtorOrderJson : JsonSerializerContext;
