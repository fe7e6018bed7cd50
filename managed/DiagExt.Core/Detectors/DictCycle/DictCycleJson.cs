using System.Text.Json.Serialization;

namespace DiagExt.Core.Detectors.DictCycle;

/// <summary>The JSON contract of <see cref="DictCycleFinding"/>, generated at compile time (no reflection: Native AOT).</summary>
[JsonSerializable(typeof(DictCycleFinding))]
internal sealed partial class DictCycleJson : JsonSerializerContext;
