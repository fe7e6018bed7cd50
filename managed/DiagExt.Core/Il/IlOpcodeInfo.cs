using System.Reflection.Metadata;

namespace DiagExt.Core.Il;

/// <summary>
/// Operand kind and fixed stack effect of every IL opcode (ECMA-335 partition III). Calls, newobj and
/// ret depend on a signature: <see cref="IsVariableStack"/> says so and the caller decodes it.
/// </summary>
public static class IlOpcodeInfo
{
    public static IlOperandKind Operand(ILOpCode op) => op switch
    {
        ILOpCode.Ldarg_s or ILOpCode.Ldarga_s or ILOpCode.Starg_s or ILOpCode.Ldloc_s or ILOpCode.Ldloca_s
            or ILOpCode.Stloc_s or ILOpCode.Ldc_i4_s or ILOpCode.Unaligned => IlOperandKind.Int8,
        ILOpCode.Br_s or ILOpCode.Brfalse_s or ILOpCode.Brtrue_s or ILOpCode.Beq_s or ILOpCode.Bge_s or ILOpCode.Bgt_s
            or ILOpCode.Ble_s or ILOpCode.Blt_s or ILOpCode.Bne_un_s or ILOpCode.Bge_un_s or ILOpCode.Bgt_un_s
            or ILOpCode.Ble_un_s or ILOpCode.Blt_un_s or ILOpCode.Leave_s => IlOperandKind.ShortBranch,
        ILOpCode.Br or ILOpCode.Brfalse or ILOpCode.Brtrue or ILOpCode.Beq or ILOpCode.Bge or ILOpCode.Bgt
            or ILOpCode.Ble or ILOpCode.Blt or ILOpCode.Bne_un or ILOpCode.Bge_un or ILOpCode.Bgt_un
            or ILOpCode.Ble_un or ILOpCode.Blt_un or ILOpCode.Leave => IlOperandKind.Branch,
        ILOpCode.Ldarg or ILOpCode.Ldarga or ILOpCode.Starg or ILOpCode.Ldloc or ILOpCode.Ldloca or ILOpCode.Stloc => IlOperandKind.UInt16,
        ILOpCode.Ldc_i4 => IlOperandKind.Int32,
        ILOpCode.Ldc_r4 => IlOperandKind.Float32,
        ILOpCode.Ldc_i8 => IlOperandKind.Int64,
        ILOpCode.Ldc_r8 => IlOperandKind.Float64,
        ILOpCode.Switch => IlOperandKind.Switch,
        ILOpCode.Jmp or ILOpCode.Call or ILOpCode.Calli or ILOpCode.Callvirt or ILOpCode.Cpobj or ILOpCode.Ldobj
            or ILOpCode.Ldstr or ILOpCode.Newobj or ILOpCode.Castclass or ILOpCode.Isinst or ILOpCode.Unbox
            or ILOpCode.Ldfld or ILOpCode.Ldflda or ILOpCode.Stfld or ILOpCode.Ldsfld or ILOpCode.Ldsflda
            or ILOpCode.Stsfld or ILOpCode.Stobj or ILOpCode.Box or ILOpCode.Newarr or ILOpCode.Ldelema
            or ILOpCode.Ldelem or ILOpCode.Stelem or ILOpCode.Unbox_any or ILOpCode.Refanyval or ILOpCode.Mkrefany
            or ILOpCode.Ldtoken or ILOpCode.Ldftn or ILOpCode.Ldvirtftn or ILOpCode.Initobj or ILOpCode.Constrained
            or ILOpCode.Sizeof => IlOperandKind.Token,
        _ => IlOperandKind.None,
    };

    public static bool IsVariableStack(ILOpCode op) => op is ILOpCode.Call or ILOpCode.Callvirt or ILOpCode.Calli or ILOpCode.Newobj or ILOpCode.Ret;

    /// <summary>True when control never falls through to the next instruction.</summary>
    public static bool EndsFlow(ILOpCode op) => op is ILOpCode.Br or ILOpCode.Br_s or ILOpCode.Leave or ILOpCode.Leave_s
        or ILOpCode.Ret or ILOpCode.Throw or ILOpCode.Rethrow or ILOpCode.Endfinally or ILOpCode.Endfilter or ILOpCode.Jmp;

    /// <summary>Values popped and pushed by an opcode with a fixed stack effect.</summary>
    public static (int Pop, int Push) StackEffect(ILOpCode op) => op switch
    {
        ILOpCode.Nop or ILOpCode.Break or ILOpCode.Br or ILOpCode.Br_s or ILOpCode.Leave or ILOpCode.Leave_s
            or ILOpCode.Endfinally or ILOpCode.Rethrow or ILOpCode.Jmp or ILOpCode.Unaligned or ILOpCode.Volatile
            or ILOpCode.Tail or ILOpCode.Constrained or ILOpCode.Readonly => (0, 0),
        ILOpCode.Ldarg_0 or ILOpCode.Ldarg_1 or ILOpCode.Ldarg_2 or ILOpCode.Ldarg_3 or ILOpCode.Ldloc_0 or ILOpCode.Ldloc_1
            or ILOpCode.Ldloc_2 or ILOpCode.Ldloc_3 or ILOpCode.Ldarg_s or ILOpCode.Ldarga_s or ILOpCode.Ldloc_s
            or ILOpCode.Ldloca_s or ILOpCode.Ldnull or ILOpCode.Ldc_i4_m1 or ILOpCode.Ldc_i4_0 or ILOpCode.Ldc_i4_1
            or ILOpCode.Ldc_i4_2 or ILOpCode.Ldc_i4_3 or ILOpCode.Ldc_i4_4 or ILOpCode.Ldc_i4_5 or ILOpCode.Ldc_i4_6
            or ILOpCode.Ldc_i4_7 or ILOpCode.Ldc_i4_8 or ILOpCode.Ldc_i4_s or ILOpCode.Ldc_i4 or ILOpCode.Ldc_i8
            or ILOpCode.Ldc_r4 or ILOpCode.Ldc_r8 or ILOpCode.Ldstr or ILOpCode.Ldsfld or ILOpCode.Ldsflda
            or ILOpCode.Ldtoken or ILOpCode.Arglist or ILOpCode.Ldftn or ILOpCode.Ldarg or ILOpCode.Ldarga
            or ILOpCode.Ldloc or ILOpCode.Ldloca or ILOpCode.Sizeof => (0, 1),
        ILOpCode.Stloc_0 or ILOpCode.Stloc_1 or ILOpCode.Stloc_2 or ILOpCode.Stloc_3 or ILOpCode.Starg_s
            or ILOpCode.Stloc_s or ILOpCode.Pop or ILOpCode.Brfalse or ILOpCode.Brfalse_s or ILOpCode.Brtrue
            or ILOpCode.Brtrue_s or ILOpCode.Switch or ILOpCode.Throw or ILOpCode.Stsfld or ILOpCode.Starg
            or ILOpCode.Stloc or ILOpCode.Endfilter or ILOpCode.Initobj => (1, 0),
        ILOpCode.Dup => (1, 2),
        ILOpCode.Beq or ILOpCode.Beq_s or ILOpCode.Bge or ILOpCode.Bge_s or ILOpCode.Bgt or ILOpCode.Bgt_s or ILOpCode.Ble
            or ILOpCode.Ble_s or ILOpCode.Blt or ILOpCode.Blt_s or ILOpCode.Bne_un or ILOpCode.Bne_un_s or ILOpCode.Bge_un
            or ILOpCode.Bge_un_s or ILOpCode.Bgt_un or ILOpCode.Bgt_un_s or ILOpCode.Ble_un or ILOpCode.Ble_un_s
            or ILOpCode.Blt_un or ILOpCode.Blt_un_s or ILOpCode.Stind_i or ILOpCode.Stind_i1 or ILOpCode.Stind_i2
            or ILOpCode.Stind_i4 or ILOpCode.Stind_i8 or ILOpCode.Stind_r4 or ILOpCode.Stind_r8 or ILOpCode.Stind_ref
            or ILOpCode.Cpobj or ILOpCode.Stfld or ILOpCode.Stobj => (2, 0),
        ILOpCode.Add or ILOpCode.Sub or ILOpCode.Mul or ILOpCode.Div or ILOpCode.Div_un or ILOpCode.Rem or ILOpCode.Rem_un
            or ILOpCode.And or ILOpCode.Or or ILOpCode.Xor or ILOpCode.Shl or ILOpCode.Shr or ILOpCode.Shr_un
            or ILOpCode.Add_ovf or ILOpCode.Add_ovf_un or ILOpCode.Mul_ovf or ILOpCode.Mul_ovf_un or ILOpCode.Sub_ovf
            or ILOpCode.Sub_ovf_un or ILOpCode.Ceq or ILOpCode.Cgt or ILOpCode.Cgt_un or ILOpCode.Clt or ILOpCode.Clt_un
            or ILOpCode.Ldelema or ILOpCode.Ldelem_i1 or ILOpCode.Ldelem_u1 or ILOpCode.Ldelem_i2 or ILOpCode.Ldelem_u2
            or ILOpCode.Ldelem_i4 or ILOpCode.Ldelem_u4 or ILOpCode.Ldelem_i8 or ILOpCode.Ldelem_i or ILOpCode.Ldelem_r4
            or ILOpCode.Ldelem_r8 or ILOpCode.Ldelem_ref or ILOpCode.Ldelem => (2, 1),
        ILOpCode.Stelem_i or ILOpCode.Stelem_i1 or ILOpCode.Stelem_i2 or ILOpCode.Stelem_i4 or ILOpCode.Stelem_i8
            or ILOpCode.Stelem_r4 or ILOpCode.Stelem_r8 or ILOpCode.Stelem_ref or ILOpCode.Stelem or ILOpCode.Cpblk
            or ILOpCode.Initblk => (3, 0),
        // Everything else (ldind.*, neg, not, conv.*, ldobj, castclass, isinst, unbox, ldfld, ldflda, box, newarr,
        // ldlen, unbox.any, refanyval, ckfinite, mkrefany, ldvirtftn, localloc, refanytype) takes one value, gives one.
        _ => (1, 1),
    };
}
