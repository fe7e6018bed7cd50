namespace DiagExt.Core.Targets.Stacks;

/// <summary>
/// A range of one thread's stack, from <see cref="Low"/> up to <see cref="High"/> (exclusive): the live part runs from
/// the thread's stack pointer to its base (the stack grows down, so everything below the stack pointer is unused memory),
/// a frame's own part from its stack pointer to its caller's.
/// </summary>
public readonly record struct StackRange(ulong Low, ulong High)
{
    public bool Contains(ulong address) => address >= Low && address < High;

    public ulong Length => High > Low ? High - Low : 0;

    public override string ToString() => $"0x{Low:x}-0x{High:x}";
}
