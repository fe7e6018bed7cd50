using System.Reflection.Metadata;

namespace DiagExt.Core.Il;

/// <summary>
/// One decoded IL instruction. <see cref="Operand"/> holds the constant, local/argument index, metadata
/// token or (for branches) the absolute target offset; a switch has its targets in <see cref="SwitchTargets"/>.
/// </summary>
public readonly record struct IlInstruction(int Offset, ILOpCode OpCode, long Operand, int[]? SwitchTargets = null)
{
    public int Token => (int)Operand;

    public int IntOperand => (int)Operand;

    public bool IsBranch => IlOpcodeInfo.Operand(OpCode) is IlOperandKind.Branch or IlOperandKind.ShortBranch;

    public override string ToString() => $"IL_{Offset:x4}: {OpCode.ToString().ToLowerInvariant().Replace('_', '.')}";
}
