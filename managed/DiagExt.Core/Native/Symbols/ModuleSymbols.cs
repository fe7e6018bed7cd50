using DiagExt.Core.Native.Pe;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Native.Symbols;

/// <summary>
/// Names addresses inside one module from what the dump holds of its image: the export table and, on x64, the
/// .pdata function bounds. An address is named after an export only when it is provably inside that export's
/// function; otherwise it is "module+0xRVA", which is honest for internal functions such as LdrpDrainWorkQueue.
/// </summary>
internal sealed class ModuleSymbols
{
    /// <summary>A leaf function or stub (no .pdata entry, e.g. the NtXxx syscall stubs) is short.</summary>
    private const uint MaxLeafOffset = 0x1000;

    /// <summary>
    /// Without .pdata (x86 images) the nearest export below is the only clue; beyond this distance the address
    /// is more likely in an internal function than in the export.
    /// </summary>
    private const uint MaxOffsetWithoutTable = 0x2000;

    private readonly PeExport[] _exports;
    private readonly uint[] _exportRvas;
    private readonly PeFunctionTable? _functions;

    private ModuleSymbols(string name, string fileName, ulong imageBase, uint size, PeHeaders? headers, IReadOnlyList<PeExport> exports, PeFunctionTable? functions)
    {
        Name = name;
        FileName = fileName;
        ImageBase = imageBase;
        Size = size;
        Headers = headers;
        _exports = [.. exports];
        _exportRvas = [.. exports.Select(e => e.Rva)];
        _functions = functions;
    }

    /// <summary>"ntdll" (WinDbg's module name: the file name without its extension).</summary>
    public string Name { get; }

    /// <summary>"ntdll.dll".</summary>
    public string FileName { get; }

    public ulong ImageBase { get; }

    public uint Size { get; }

    /// <summary>Null when the image's headers are not in the dump (a minidump without module memory).</summary>
    public PeHeaders? Headers { get; }

    public bool HasExports => _exports.Length > 0;

    /// <summary>The x64 .pdata table, or null (x86 images, or not captured).</summary>
    public PeFunctionTable? Functions => _functions;

    public static ModuleSymbols Load(IMemoryReader memory, string fileName, ulong imageBase, uint size, Limits limits)
    {
        PeHeaders? headers = PeHeaders.Read(memory, imageBase);
        IReadOnlyList<PeExport> exports = headers is null ? [] : PeExportReader.Read(memory, imageBase, headers, limits);
        PeFunctionTable? functions = headers is null ? null : PeFunctionTable.Read(memory, imageBase, headers, limits);
        string name = Path.GetFileNameWithoutExtension(fileName);
        return new ModuleSymbols(name.Length == 0 ? fileName : name, fileName, imageBase, size, headers, exports, functions);
    }

    public bool Contains(ulong address) => address >= ImageBase && address - ImageBase < Size;

    /// <summary>Whether the address is in a code section of the image (false when the headers were not captured).</summary>
    public bool IsCode(ulong address) => Headers is { } h && Contains(address) && h.IsCode((uint)(address - ImageBase));

    public NativeSymbol Resolve(ulong address)
    {
        uint rva = (uint)(address - ImageBase);
        PeExport? export = ExportNamingFunctionAt(rva);
        return export is { } e
            ? new NativeSymbol(address, Name, FileName, e.Name, rva - e.Rva)
            : new NativeSymbol(address, Name, FileName, null, rva);
    }

    /// <summary>The RVA of the export called <paramref name="function"/>, if this module exports it.</summary>
    public uint? ExportRva(string function)
    {
        foreach (PeExport e in _exports)
            if (e.Name == function)
                return e.Rva;
        return null;
    }

    private PeExport? ExportNamingFunctionAt(uint rva)
    {
        int nearest = NearestExportAtOrBelow(rva);
        if (_functions is { } table)
        {
            if (table.FunctionAt(rva) is { } function)
                return ExportAt(function.Start);
            if (nearest < 0)
                return null;
            PeExport candidate = _exports[nearest];
            // A leaf: inside the export only if no other function starts in between and the export's own
            // function (if it has an entry) does not end before the address.
            if (rva - candidate.Rva > MaxLeafOffset || table.AnyFunctionBeginsIn(candidate.Rva, rva))
                return null;
            if (table.FunctionAt(candidate.Rva) is { } own && own.PartEnd <= rva)
                return null;
            return ExportAt(candidate.Rva);
        }
        return nearest >= 0 && rva - _exports[nearest].Rva <= MaxOffsetWithoutTable ? ExportAt(_exportRvas[nearest]) : null;
    }

    private PeExport? ExportAt(uint rva)
    {
        int i = NearestExportAtOrBelow(rva);
        if (i < 0 || _exportRvas[i] != rva)
            return null;
        while (i > 0 && _exportRvas[i - 1] == rva)
            i--; // several names for one function: the first in name order, deterministically
        return _exports[i];
    }

    private int NearestExportAtOrBelow(uint rva)
    {
        int i = Array.BinarySearch(_exportRvas, rva);
        if (i >= 0)
        {
            while (i + 1 < _exportRvas.Length && _exportRvas[i + 1] == rva)
                i++;
            return i;
        }
        return ~i - 1;
    }
}
