namespace DiagExt.Core.Targets.Stacks;

/// <summary>
/// One pointer-sized value a thread holds: on its live stack at <see cref="Address"/>, or in one of its registers
/// (<see cref="Address"/> 0).
/// </summary>
public readonly record struct StackWord(ulong Address, ulong Value)
{
    public bool InRegister => Address == 0;

    public string Where => InRegister ? "in a register" : $"at 0x{Address:x}";
}
