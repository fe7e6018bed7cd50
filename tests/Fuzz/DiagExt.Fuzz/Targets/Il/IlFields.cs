using System.Collections.Immutable;
using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using System.Reflection.PortableExecutable;
using DiagExt.Core.Il;
using DiagExt.Fuzz.Engine;

namespace DiagExt.Fuzz.Targets.Il;

/// <summary>
/// The fields of a managed assembly that the IL scanner trusts, located with System.Reflection.Metadata on the
/// (still parseable) input: metadata stream headers and table row counts, each method body's header, code size,
/// branch and switch operands, tokens and exception clauses, and each TypeSpec signature, whose first bytes can be
/// set to a custom modifier naming the TypeSpec itself (a signature that contains itself).
/// </summary>
internal static class IlFields
{
    private const int MaxMethods = 48;

    public static IReadOnlyList<Field> Find(ReadOnlySpan<byte> input)
    {
        var fields = new FieldList(input.Length);
        using var pe = new PEReader(ImmutableArray.Create(input.ToArray()));
        if (!pe.HasMetadata)
            return fields.ToList();
        MetadataReader md = pe.GetMetadataReader();
        int metadataStart = pe.PEHeaders.MetadataStartOffset;
        AddTables(md, metadataStart, fields);
        int index = 0;
        foreach (MethodDefinitionHandle handle in md.MethodDefinitions)
        {
            int rva = md.GetMethodDefinition(handle).RelativeVirtualAddress;
            if (rva == 0 || index++ >= MaxMethods || !pe.PEHeaders.TryGetDirectoryOffset(new DirectoryEntry(rva, 1), out int body))
                continue;
            AddBody(input, body, fields);
        }
        AddTypeSpecs(md, metadataStart, fields);
        return fields.ToList();
    }

    private static void AddTables(MetadataReader md, int metadataStart, FieldList fields)
    {
        foreach (TableIndex table in new[] { TableIndex.TypeDef, TableIndex.MethodDef, TableIndex.MemberRef, TableIndex.TypeSpec, TableIndex.MethodSpec, TableIndex.StandAloneSig, TableIndex.NestedClass })
        {
            int rows = md.GetTableRowCount(table), size = md.GetTableRowSize(table);
            int start = metadataStart + md.GetTableMetadataOffset(table);
            for (int row = 0; row < Math.Min(rows, 8); row++)
                for (int column = 0; column + 2 <= size; column += 2)
                    fields.Add(start + row * size + column, 2, FieldKind.Index, (ulong)row + 1); // a row naming itself
        }
    }

    private static void AddBody(ReadOnlySpan<byte> input, int body, FieldList fields)
    {
        if (body >= input.Length)
            return;
        if ((input[body] & 3) == 2) // tiny header: size in the upper six bits
        {
            fields.Add(body, 1, FieldKind.Length);
            AddCode(input, body + 1, input[body] >> 2, fields);
            return;
        }
        fields.Add(body, 2, FieldKind.Tag, 0x301B);      // flags and header size
        fields.Add(body + 2, 2, FieldKind.Count);        // MaxStack
        fields.Add(body + 4, 4, FieldKind.Length);       // CodeSize
        fields.Add(body + 8, 4, FieldKind.Tag, 0x11000001); // LocalVarSigTok
        int codeSize = (int)Math.Min(FieldList.U32(input, body + 4), 1u << 20);
        AddCode(input, body + 12, codeSize, fields);
        int sections = (body + 12 + codeSize + 3) & ~3;
        if ((FieldList.U16(input, body) & 0x8) != 0 && sections + 4 <= input.Length) // more sects: exception clauses
        {
            fields.Add(sections, 1, FieldKind.Tag, 0x41);
            fields.Add(sections + 1, 3, FieldKind.Length);
            for (int c = 0; c < 4; c++)
                for (int f = 0; f < 5; f++)
                    fields.Add(sections + 4 + c * 24 + 4 + f * 4, 4, FieldKind.Offset);
        }
    }

    private static void AddCode(ReadOnlySpan<byte> input, int start, int size, FieldList fields)
    {
        if (start < 0 || start + size > input.Length)
            return;
        IlInstruction[] code;
        try
        {
            code = IlDecoder.Decode(input.Slice(start, size));
        }
        catch (BadImageFormatException)
        {
            return;
        }
        foreach (IlInstruction ins in code.Take(256))
        {
            int operand = start + ins.Offset + ((int)ins.OpCode > 0xFF ? 2 : 1);
            switch (IlOpcodeInfo.Operand(ins.OpCode))
            {
                case IlOperandKind.ShortBranch:
                    fields.Add(operand, 1, FieldKind.Offset, unchecked((ulong)-2)); // a branch to itself
                    break;
                case IlOperandKind.Branch:
                    fields.Add(operand, 4, FieldKind.Offset, unchecked((ulong)-5));
                    break;
                case IlOperandKind.Switch:
                    fields.Add(operand, 4, FieldKind.Count);
                    break;
                case IlOperandKind.Token:
                    fields.Add(operand, 4, FieldKind.Tag);
                    break;
                case IlOperandKind.UInt16 or IlOperandKind.Int8:
                    fields.Add(operand, (int)IlOpcodeInfo.Operand(ins.OpCode) == (int)IlOperandKind.UInt16 ? 2 : 1, FieldKind.Index);
                    break;
            }
        }
    }

    private static void AddTypeSpecs(MetadataReader md, int metadataStart, FieldList fields)
    {
        int blobHeap = metadataStart + md.GetHeapMetadataOffset(HeapIndex.Blob);
        for (int row = 1; row <= Math.Min(md.GetTableRowCount(TableIndex.TypeSpec), 31); row++)
        {
            BlobHandle signature = md.GetTypeSpecification(MetadataTokens.TypeSpecificationHandle(row)).Signature;
            int at = blobHeap + md.GetHeapOffset(signature) + 1; // past the blob's compressed length (short blobs)
            // CMOD_OPT (0x20) then the TypeDefOrRef coded index of this very TypeSpec (tag 2), in one byte for rows < 32.
            fields.Add(at, 2, FieldKind.Tag, 0x20u | (uint)((row << 2) | 2) << 8);
        }
    }
}
