namespace DiagExt.Fuzz.Engine;

/// <summary>
/// A property of the output failed (JSON does not parse, markup from the target survived, an index out of range).
/// The message names the property before its first colon (that part tells defects apart), the details after it.
/// </summary>
public sealed class PropertyViolation(string message) : Exception(message);
