using System.Buffers.Binary;
using System.Reflection.Metadata;

namespace DiagExt.Core.Il;

/// <summary>
/// Decodes a method body's IL bytes into instructions. The bytes come from untrusted assemblies and dumps:
/// every operand is bounds-checked and anything malformed is a <see cref="BadImageFormatException"/>.
/// </summary>
public static class IlDecoder
{
    /// <summary>Largest IL body decoded (the ECMA limit is far larger; real methods stay well below).</summary>
    public const int MaxIlBytes = 4 * 1024 * 1024;

    public const int MaxSwitchTargets = 64 * 1024;

    public static IlInstruction[] Decode(ReadOnlySpan<byte> il)
    {
        if (il.Length > MaxIlBytes)
            throw new BadImageFormatException($"IL body of {il.Length:N0} bytes exceeds the {MaxIlBytes:N0} byte limit");
        var result = new List<IlInstruction>(il.Length / 2 + 1);
        int pos = 0;
        while (pos < il.Length)
        {
            int offset = pos;
            ILOpCode op;
            if (il[pos] == 0xFE)
            {
                Need(il, pos, 2);
                op = (ILOpCode)(0xFE00 | il[pos + 1]);
                pos += 2;
            }
            else
            {
                op = (ILOpCode)il[pos];
                pos += 1;
            }
            if (!IsDefined(op))
                throw new BadImageFormatException($"unknown IL opcode 0x{(int)op:x} at IL_{offset:x4}");

            long operand = 0;
            int[]? targets = null;
            switch (IlOpcodeInfo.Operand(op))
            {
                case IlOperandKind.Int8:
                    Need(il, pos, 1);
                    operand = op is ILOpCode.Ldc_i4_s ? (sbyte)il[pos] : il[pos];
                    pos += 1;
                    break;
                case IlOperandKind.ShortBranch:
                    Need(il, pos, 1);
                    operand = pos + 1 + (sbyte)il[pos];
                    pos += 1;
                    break;
                case IlOperandKind.UInt16:
                    Need(il, pos, 2);
                    operand = BinaryPrimitives.ReadUInt16LittleEndian(il[pos..]);
                    pos += 2;
                    break;
                case IlOperandKind.Int32 or IlOperandKind.Token or IlOperandKind.Float32:
                    Need(il, pos, 4);
                    operand = BinaryPrimitives.ReadInt32LittleEndian(il[pos..]);
                    pos += 4;
                    break;
                case IlOperandKind.Branch:
                    Need(il, pos, 4);
                    operand = (long)pos + 4 + BinaryPrimitives.ReadInt32LittleEndian(il[pos..]);
                    pos += 4;
                    break;
                case IlOperandKind.Int64 or IlOperandKind.Float64:
                    Need(il, pos, 8);
                    operand = BinaryPrimitives.ReadInt64LittleEndian(il[pos..]);
                    pos += 8;
                    break;
                case IlOperandKind.Switch:
                    Need(il, pos, 4);
                    uint count = BinaryPrimitives.ReadUInt32LittleEndian(il[pos..]);
                    pos += 4;
                    if (count > MaxSwitchTargets || (long)count * 4 > il.Length - pos)
                        throw new BadImageFormatException($"switch at IL_{offset:x4} claims {count} targets");
                    int end = pos + (int)count * 4;
                    targets = new int[count];
                    for (int i = 0; i < count; i++)
                        targets[i] = end + BinaryPrimitives.ReadInt32LittleEndian(il[(pos + i * 4)..]);
                    pos = end;
                    break;
            }
            result.Add(new IlInstruction(offset, op, operand, targets));
        }
        return result.ToArray();
    }

    private static void Need(ReadOnlySpan<byte> il, int pos, int bytes)
    {
        if (pos + bytes > il.Length)
            throw new BadImageFormatException($"IL ends inside an instruction at IL_{pos:x4}");
    }

    private static bool IsDefined(ILOpCode op)
    {
        int v = (int)op;
        // One-byte opcodes 0x00-0xE0 with gaps; two-byte 0xFE00-0xFE1E with gaps (ECMA-335 III.1.2.1).
        if (v <= 0xE0)
            return v is not (0x24 or 0x77 or 0x78) && !(v >= 0xA6 && v <= 0xB2) && !(v >= 0xBB && v <= 0xC1)
                && !(v >= 0xC4 && v <= 0xC5) && !(v >= 0xC7 && v <= 0xCF);
        // 0xFE19 (the "no." prefix) is left out: no compiler emits it and its operand is not modelled.
        return v >= 0xFE00 && v <= 0xFE1E && v is not (0xFE08 or 0xFE10 or 0xFE19 or 0xFE1B);
    }
}
