namespace DiagExt.Core.Targets;

/// <summary>A reference from a thread's stack or registers to a heap object.</summary>
public readonly record struct StackRoot(ulong Address, ulong Object);
