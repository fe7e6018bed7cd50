using DiagExt.Core.Native.Minidump;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Native.Symbols;

/// <summary>
/// Names code addresses of a Windows dump from the module images it holds (exports, x64 .pdata): no PDB, no
/// symbol server, any host. Each module's tables are read once, on first use.
/// </summary>
internal sealed class NativeSymbolizer
{
    private readonly IMemoryReader _memory;
    private readonly Limits _limits;
    private readonly MinidumpModule[] _modules;
    private readonly ModuleSymbols?[] _loaded;

    public NativeSymbolizer(IMemoryReader memory, IEnumerable<MinidumpModule> modules, Limits limits)
    {
        _memory = memory;
        _limits = limits;
        _modules = modules.Where(m => m.SizeOfImage > 0).OrderBy(m => m.BaseOfImage).ToArray();
        _loaded = new ModuleSymbols?[_modules.Length];
    }

    public NativeSymbol Resolve(ulong address) => ModuleAt(address)?.Resolve(address) ?? NativeSymbol.Unknown(address);

    /// <summary>Whether <paramref name="address"/> is in a code section of a module whose headers the dump holds.</summary>
    public bool IsCode(ulong address) => ModuleAt(address)?.IsCode(address) ?? false;

    /// <summary>Whether any module image (its headers) is in the dump: without them nothing can be named.</summary>
    public bool AnyImageCaptured()
    {
        for (int i = 0; i < _modules.Length; i++)
            if (Load(i).Headers is not null)
                return true;
        return false;
    }

    /// <summary>The address of <paramref name="function"/> exported by the module whose file name is <paramref name="moduleFileName"/>.</summary>
    public ulong? ExportAddress(string moduleFileName, string function)
    {
        for (int i = 0; i < _modules.Length; i++)
        {
            ModuleSymbols module = Load(i);
            if (string.Equals(module.FileName, moduleFileName, StringComparison.OrdinalIgnoreCase) && module.ExportRva(function) is uint rva)
                return module.ImageBase + rva;
        }
        return null;
    }

    internal ModuleSymbols? ModuleAt(ulong address)
    {
        int lo = 0, hi = _modules.Length - 1;
        while (lo <= hi)
        {
            int mid = (lo + hi) >>> 1;
            if (address < _modules[mid].BaseOfImage)
                hi = mid - 1;
            else if (!_modules[mid].Contains(address))
                lo = mid + 1;
            else
                return Load(mid);
        }
        return null;
    }

    private ModuleSymbols Load(int index) =>
        _loaded[index] ??= ModuleSymbols.Load(_memory, _modules[index].FileName, _modules[index].BaseOfImage, _modules[index].SizeOfImage, _limits);
}
