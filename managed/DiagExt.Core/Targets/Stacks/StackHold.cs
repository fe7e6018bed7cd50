namespace DiagExt.Core.Targets.Stacks;

/// <summary>How a thread holds an object, from strongest to none.</summary>
public enum HoldKind
{
    /// <summary>Neither its registers nor its live stack (in the range asked about) hold the address.</summary>
    None,

    /// <summary>The address is on its stack, but nothing else reaches the object: a stale copy in a slot no live code uses.</summary>
    Stale,

    /// <summary>The address is on its stack and the liveness mark stopped at its limit before settling whether the object is live.</summary>
    Unsettled,

    /// <summary>
    /// The address is in the part of the stack of a real frame that runs one of the object's methods (its <c>this</c>):
    /// objects only stacks keep (one being worked on, one built in a local) are held this way.
    /// </summary>
    FrameThis,

    /// <summary>The address is on its live stack (or in a register) and the object is live (reachable from a root other than a stack).</summary>
    Live,

    /// <summary>The object is the exception the thread is throwing or handling now.</summary>
    CurrentException,
}

/// <summary>
/// The answer to "does this thread hold that object": <see cref="HoldKind.FrameThis"/>, <see cref="HoldKind.Live"/> and
/// <see cref="HoldKind.CurrentException"/> count as evidence (<see cref="Counts"/>); a stale or unsettled copy is at most a
/// note (<see cref="Note"/>).
/// </summary>
public sealed record StackHold(ulong Address, HoldKind Kind, StackWord? Word, string? TypeName)
{
    public static StackHold None(ulong address) => new(address, HoldKind.None, null, null);

    public bool Counts => Kind is HoldKind.FrameThis or HoldKind.Live or HoldKind.CurrentException;

    /// <summary>For evidence set aside, what was seen and why it does not count; null otherwise.</summary>
    public string? Note => Kind switch
    {
        HoldKind.Stale => $"a stale reference to {What} in unused stack memory ({Word?.Where}; nothing else reaches it)",
        HoldKind.Unsettled => $"a reference to {What} {Word?.Where}, not counted: whether anything else reaches it was not settled within the liveness mark's limit",
        _ => null,
    };

    private string What => $"{(TypeName is null ? "object" : TypeNames.Short(TypeName))} 0x{Address:x}";
}
