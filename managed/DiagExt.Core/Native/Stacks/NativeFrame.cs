using DiagExt.Core.Native.Symbols;

namespace DiagExt.Core.Native.Stacks;

/// <summary>
/// One frame of a native stack found by scanning: the thread's instruction pointer (frame 0) or a return address
/// read from the stack slot <see cref="StackSlot"/>.
/// </summary>
internal sealed record NativeFrame(ulong Address, ulong? StackSlot, NativeSymbol Symbol)
{
    public override string ToString() => Symbol.ToString();
}
