using DiagExt.Core.Targets;

namespace DiagExt.Core.Native.Pe;

/// <summary>
/// The x64 exception directory (.pdata): RUNTIME_FUNCTION {BeginAddress, EndAddress, UnwindData} for every
/// function that is not a leaf. It tells where functions start and end without a PDB, so an address inside
/// an internal function (LdrpLoadDllInternal) is not named after the export before it (LdrLoadDll).
/// A function split into parts has one entry per part, chained through its unwind info to the primary entry.
/// </summary>
internal sealed class PeFunctionTable
{
    private const int EntrySize = 12;
    private const uint ChainInfoFlag = 0x4;   // UNW_FLAG_CHAININFO
    private const uint IndirectFlag = 0x1;    // RUNTIME_FUNCTION_INDIRECT: UnwindData points at another entry
    private const int MaxChainDepth = 32;

    private readonly IMemoryReader _memory;
    private readonly ulong _imageBase;
    private readonly uint[] _begin;
    private readonly uint[] _end;
    private readonly uint[] _unwind;

    private PeFunctionTable(IMemoryReader memory, ulong imageBase, uint[] begin, uint[] end, uint[] unwind)
    {
        _memory = memory;
        _imageBase = imageBase;
        _begin = begin;
        _end = end;
        _unwind = unwind;
    }

    public int Count => _begin.Length;

    /// <summary>The table of an x64 image, or null when it has none or it was not captured.</summary>
    public static PeFunctionTable? Read(IMemoryReader memory, ulong imageBase, PeHeaders headers, Limits limits)
    {
        if (headers.Machine != PeHeaders.MachineAmd64 || !headers.Exception.IsPresent)
            return null;
        long count = headers.Exception.Size / EntrySize;
        if (count == 0 || count > limits.MaxRuntimeFunctionsPerModule)
            return null;
        byte[] raw = new byte[count * EntrySize];
        int read = memory.ReadMemory(imageBase + headers.Exception.Rva, raw);
        count = read / EntrySize;
        if (count == 0)
            return null;

        var entries = new List<(uint Begin, uint End, uint Unwind)>((int)count);
        for (int i = 0; i < count; i++)
        {
            uint begin = BinaryReads.U32(raw, i * EntrySize), end = BinaryReads.U32(raw, i * EntrySize + 4);
            if (end > begin && end <= headers.SizeOfImage)
                entries.Add((begin, end, BinaryReads.U32(raw, i * EntrySize + 8)));
        }
        entries.Sort((a, b) => a.Begin.CompareTo(b.Begin)); // sorted by the linker; not trusted
        return new PeFunctionTable(memory, imageBase, [.. entries.Select(e => e.Begin)], [.. entries.Select(e => e.End)], [.. entries.Select(e => e.Unwind)]);
    }

    /// <summary>Whether some function of the table begins in (<paramref name="after"/>, <paramref name="upTo"/>].</summary>
    public bool AnyFunctionBeginsIn(uint after, uint upTo)
    {
        int i = LastBeginAtOrBelow(upTo);
        return i >= 0 && _begin[i] > after;
    }

    /// <summary>
    /// The primary start and the end of the function part containing <paramref name="rva"/>, or null when no entry
    /// covers it (a leaf function or a stub: they have no .pdata entry).
    /// </summary>
    public (uint Start, uint PartEnd)? FunctionAt(uint rva)
    {
        int i = LastBeginAtOrBelow(rva);
        if (i < 0 || rva >= _end[i])
            return null;
        return (PrimaryStart(i), _end[i]);
    }

    /// <summary>The RUNTIME_FUNCTION entry covering <paramref name="rva"/>: the part's bounds and its unwind data RVA.</summary>
    public (uint Begin, uint End, uint UnwindData)? EntryAt(uint rva)
    {
        int i = LastBeginAtOrBelow(rva);
        return i < 0 || rva >= _end[i] ? null : (_begin[i], _end[i], _unwind[i]);
    }

    private uint PrimaryStart(int index)
    {
        uint begin = _begin[index];
        uint unwind = _unwind[index];
        for (int depth = 0; depth < MaxChainDepth; depth++)
        {
            if ((unwind & IndirectFlag) != 0)
            {
                // The entry's UnwindData is the RVA of another RUNTIME_FUNCTION.
                if (_memory.ReadExactly(_imageBase + (unwind & ~IndirectFlag), EntrySize) is not { } indirect)
                    return begin;
                begin = BinaryReads.U32(indirect, 0);
                unwind = BinaryReads.U32(indirect, 8);
                continue;
            }
            if (_memory.ReadExactly(_imageBase + unwind, 4) is not { } info || ((info[0] >> 3) & ChainInfoFlag) == 0)
                return begin;
            // UNWIND_INFO: the chained RUNTIME_FUNCTION follows the unwind codes (an even count of 2-byte slots).
            int codes = info[2];
            ulong chained = _imageBase + unwind + 4 + (ulong)((codes + 1) & ~1) * 2;
            if (_memory.ReadExactly(chained, EntrySize) is not { } parent)
                return begin;
            begin = BinaryReads.U32(parent, 0);
            unwind = BinaryReads.U32(parent, 8);
        }
        return begin;
    }

    private int LastBeginAtOrBelow(uint rva)
    {
        int lo = 0, hi = _begin.Length - 1, found = -1;
        while (lo <= hi)
        {
            int mid = (lo + hi) >>> 1;
            if (_begin[mid] <= rva)
            {
                found = mid;
                lo = mid + 1;
            }
            else
            {
                hi = mid - 1;
            }
        }
        return found;
    }
}
