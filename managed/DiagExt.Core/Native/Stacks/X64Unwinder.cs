using DiagExt.Core.Native.Symbols;

namespace DiagExt.Core.Native.Stacks;

/// <summary>
/// Unwinds one x64 frame the way RtlVirtualUnwind does, from the image's .pdata and UNWIND_INFO in the dump:
/// undo the prolog's pushes, allocations and frame-pointer setup (restoring the saved non-volatile registers),
/// then pop the return address. A function with no .pdata entry is a leaf: its return address is at RSP.
/// Epilogs are not recognised: a thread blocked in a call is never in one.
/// </summary>
internal static class X64Unwinder
{
    private const int Rsp = 4;
    private const uint ChainInfoFlag = 0x4;
    private const uint IndirectFlag = 0x1;
    private const int MaxChainDepth = 32;

    /// <summary>
    /// Replaces <paramref name="registers"/> (16 general registers) and <paramref name="rip"/> with the caller's.
    /// False when the unwind data or the stack it needs is not in the dump.
    /// </summary>
    public static bool TryUnwind(IMemoryReader memory, NativeSymbolizer symbols, ulong[] registers, ref ulong rip)
    {
        if (symbols.ModuleAt(rip) is not { Functions: { } table } module)
            return false;
        uint rvaInImage = (uint)(rip - module.ImageBase);
        if (table.EntryAt(rvaInImage) is not { } entry)
            return PopReturnAddress(memory, registers, ref rip); // a leaf function: nothing pushed, no frame

        uint offsetInFunction = rvaInImage - entry.Begin;
        uint unwind = entry.UnwindData;
        bool primary = true;
        for (int depth = 0; depth < MaxChainDepth; depth++)
        {
            if ((unwind & IndirectFlag) != 0)
            {
                if (memory.ReadExactly(module.ImageBase + (unwind & ~IndirectFlag), 12) is not { } indirect)
                    return false;
                unwind = BinaryReads.U32(indirect, 8);
                continue;
            }
            if (memory.ReadExactly(module.ImageBase + unwind, 4) is not { } header)
                return false;
            int flags = header[0] >> 3, prologSize = header[1], count = header[2];
            int frameRegister = header[3] & 0xF, frameOffset = (header[3] >> 4) * 16;
            if (memory.ReadExactly(module.ImageBase + unwind + 4, count * 2) is not { } codes)
                return false;
            bool inProlog = primary && offsetInFunction < prologSize;
            if (!ApplyCodes(memory, codes, count, registers, ref rip, inProlog ? offsetInFunction : uint.MaxValue, frameRegister, frameOffset, out bool machineFrame))
                return false;
            if (machineFrame)
                return true;
            if ((flags & ChainInfoFlag) == 0)
                return PopReturnAddress(memory, registers, ref rip);
            // The chained RUNTIME_FUNCTION follows the codes (padded to an even count); its codes all apply.
            if (memory.ReadExactly(module.ImageBase + unwind + 4 + (uint)((count + 1) & ~1) * 2, 12) is not { } chained)
                return false;
            unwind = BinaryReads.U32(chained, 8);
            primary = false;
        }
        return false;
    }

    /// <param name="prologOffset">How far into the prolog execution got (uint.MaxValue: past it, every code applies).</param>
    private static bool ApplyCodes(IMemoryReader memory, byte[] codes, int count, ulong[] registers, ref ulong rip, uint prologOffset, int frameRegister, int frameOffset, out bool machineFrame)
    {
        machineFrame = false;
        for (int i = 0; i < count;)
        {
            int codeOffset = codes[i * 2], op = codes[i * 2 + 1] & 0xF, info = codes[i * 2 + 1] >> 4;
            int slots = Slots(op, info);
            if (slots == 0 || i + slots > count)
                return false;
            ushort Slot(int k) => BinaryReads.U16(codes, (i + k) * 2);
            if (prologOffset == uint.MaxValue || codeOffset <= prologOffset)
            {
                switch (op)
                {
                    case 0: // UWOP_PUSH_NONVOL
                        if (!Pop(memory, registers, out registers[info]))
                            return false;
                        break;
                    case 1: // UWOP_ALLOC_LARGE
                        registers[Rsp] += info == 0 ? Slot(1) * 8u : Slot(1) | (uint)Slot(2) << 16;
                        break;
                    case 2: // UWOP_ALLOC_SMALL
                        registers[Rsp] += (ulong)info * 8 + 8;
                        break;
                    case 3: // UWOP_SET_FPREG: RSP was the frame register minus its offset
                        registers[Rsp] = registers[frameRegister] - (ulong)frameOffset;
                        break;
                    case 4: // UWOP_SAVE_NONVOL
                    case 5: // UWOP_SAVE_NONVOL_FAR
                        ulong at = registers[Rsp] + (op == 4 ? Slot(1) * 8u : Slot(1) | (uint)Slot(2) << 16);
                        if (!memory.TryReadUInt64(at, out registers[info]))
                            return false;
                        break;
                    case 10: // UWOP_PUSH_MACHFRAME: an interrupt or exception frame: RIP and RSP come from it
                        ulong frame = registers[Rsp] + (info == 1 ? 8u : 0u);
                        if (!memory.TryReadUInt64(frame, out rip) || !memory.TryReadUInt64(frame + 24, out registers[Rsp]))
                            return false;
                        machineFrame = true;
                        return true;
                }
            }
            i += slots;
        }
        return true;
    }

    /// <summary>How many 2-byte slots an unwind code takes; 0 for codes that do not exist.</summary>
    private static int Slots(int op, int info) => op switch
    {
        0 or 2 or 3 or 10 => 1,
        1 => info == 0 ? 2 : 3,
        4 or 8 => 2,      // SAVE_NONVOL, SAVE_XMM128
        5 or 9 => 3,      // the _FAR forms
        6 => 1,           // UWOP_EPILOG (version 2): describes an epilog, nothing to undo here
        _ => 0,
    };

    private static bool PopReturnAddress(IMemoryReader memory, ulong[] registers, ref ulong rip) => Pop(memory, registers, out rip);

    private static bool Pop(IMemoryReader memory, ulong[] registers, out ulong value)
    {
        if (!memory.TryReadUInt64(registers[Rsp], out value))
            return false;
        registers[Rsp] += 8;
        return true;
    }
}
