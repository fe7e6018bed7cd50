using System.Text.Json.Serialization;

namespace DiagExt.Core.Detectors.LoaderLock;

/// <summary>The JSON contract of <see cref="LoaderLockFinding"/>, generated at compile time (no reflection: Native AOT).</summary>
[JsonSerializable(typeof(LoaderLockFinding))]
internal sealed partial class LoaderLockJson : JsonSerializerContext;
