namespace DiagExt.Core.Targets;

/// <summary>One frame of a thread's managed stack, as names DiagExt can match and print.</summary>
public sealed record ManagedFrame(ulong InstructionPointer, ulong StackPointer, string? TypeName, string? MethodName, string Display)
{
    /// <summary>"Type.Method" without namespace noise for generic arguments, for one-line summaries.</summary>
    public string ShortName => TypeName is null ? Display : $"{TypeNames.Short(TypeName)}.{MethodName}";

    /// <summary>A frame of the user's own code, not of the runtime's or Microsoft's libraries (nor a transition frame).</summary>
    public bool IsUserCode => TypeName is { } type
        && !type.StartsWith("System.", StringComparison.Ordinal) && !type.StartsWith("Microsoft.", StringComparison.Ordinal)
        && !type.StartsWith("Internal.", StringComparison.Ordinal);
}
