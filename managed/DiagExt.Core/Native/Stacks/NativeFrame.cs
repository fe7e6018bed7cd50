using DiagExt.Core.Native.Symbols;

namespace DiagExt.Core.Native.Stacks;

/// <summary>
/// One frame of a native stack found by scanning: the thread's instruction pointer (frame 0) or a return address
/// read from the stack slot <see cref="StackSlot"/>.
/// </summary>
/// <param name="X64Registers">On x64, where the frame was unwound with .pdata (not found by scanning): the 16 general
/// registers as unwinding left them at this frame. The non-volatile ones (rbx, rbp, rsi, rdi, r12-r15) are the values
/// this frame's function held at its call; the volatile ones are whatever the callee left.</param>
internal sealed record NativeFrame(ulong Address, ulong? StackSlot, NativeSymbol Symbol, IReadOnlyList<ulong>? X64Registers = null)
{
    /// <summary>Indexes of rbx, rbp, rsi, rdi, r12-r15 in unwind-code order.</summary>
    private static readonly int[] NonVolatile = [3, 5, 6, 7, 12, 13, 14, 15];

    /// <summary>Whether a non-volatile register of this frame held <paramref name="value"/>; null when the frame has no registers.</summary>
    public bool? HoldsInRegister(ulong value) => X64Registers is { Count: 16 } r ? NonVolatile.Any(i => r[i] == value) : null;

    public override string ToString() => Symbol.ToString();
}
