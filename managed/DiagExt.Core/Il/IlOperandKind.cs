namespace DiagExt.Core.Il;

/// <summary>How many bytes follow an opcode, and what they mean (ECMA-335 partition III).</summary>
public enum IlOperandKind
{
    None,
    Int8,
    UInt16,
    Int32,
    Token,
    Int64,
    Float32,
    Float64,
    ShortBranch,
    Branch,
    Switch,
}
