using DiagExt.Core.Native;
using DiagExt.Core.Native.Elf;
using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// The shared objects of a Linux target with their symbols, read from the files on this machine (the dump's module
/// paths) when the file's GNU build id matches the one the dump recorded (or the dump recorded none): names code
/// addresses ("libc.so.6!dlopen+0x4f", "libc.so.6+0x8b1e2" outside every sized symbol) and finds data symbols. Each
/// module's table is read once, on first use.
/// </summary>
internal sealed class ElfModules
{
    /// <summary>Most modules looked at: a process maps a few hundred at most.</summary>
    private const int MaxModules = 4096;

    private readonly Module[] _modules;

    /// <param name="BuildId">The GNU build id the dump recorded for it; empty when it recorded none.</param>
    private sealed class Module(ulong start, ulong end, string path, byte[] buildId) : IAddressRange
    {
        private bool _loaded;
        private ElfSymbolTable? _table;

        public ulong Start => start;

        public ulong End => end;

        public ulong Size => end - start;

        public string Path => path;

        public string Name => System.IO.Path.GetFileName(path);

        /// <summary>The image base minus the file's first load address: what turns a file address into a target one.</summary>
        public ulong Bias => Table is { } t ? Start - t.FirstLoadAddress : 0;

        public ElfSymbolTable? Table
        {
            get
            {
                if (!_loaded)
                {
                    _loaded = true;
                    _table = Matches() ? ElfSymbolTable.Load(path) : null;
                }
                return _table;
            }
        }

        private bool Matches() =>
            path.Length > 0 && File.Exists(path) && (buildId.Length == 0 || ElfBuildId.TryRead(path) is { } local && local.AsSpan().SequenceEqual(buildId));
    }

    public ElfModules(Target target)
    {
        var modules = new List<Module>();
        try
        {
            foreach (ModuleInfo m in target.DataTarget.EnumerateModules().Where(m => m.ImageBase != 0 && m.ImageSize > 0).Take(MaxModules))
                modules.Add(new Module(m.ImageBase, m.ImageBase + (ulong)m.ImageSize, m.FileName ?? "", m.BuildId.IsDefaultOrEmpty ? [] : m.BuildId.ToArray()));
        }
        catch (Exception e) when (e is InvalidDataException or IOException or InvalidOperationException)
        {
            // a module list the reader cannot give: the core's own list below still names what it can
        }
        // ClrMD's list leaves ld.so out; a core's NT_FILE note has every mapped file (no build id: the file on disk is trusted).
        if (target.FileMemory is ElfCoreFile core)
            foreach (ElfMappedFiles.MappedFile f in ElfMappedFiles.Read(core).Take(MaxModules))
                if (!modules.Any(m => f.Start < m.End && m.Start < f.End))
                    modules.Add(new Module(f.Start, f.End, f.Path, []));
        _modules = [.. modules.OrderBy(m => m.Start)];
    }

    /// <summary>"libc.so.6!pthread_mutex_lock+0x12", "libc.so.6+0x8b1e2", or the bare address outside every module.</summary>
    public string Name(ulong address)
    {
        if (At(address) is not { } module)
            return $"0x{address:x}";
        if (module.Table?.FunctionAt(address - module.Bias) is { } f)
            return f.Offset == 0 ? $"{module.Name}!{f.Name}" : $"{module.Name}!{f.Name}+0x{f.Offset:x}";
        return $"{module.Name}+0x{address - module.Start:x}";
    }

    /// <summary>The function name alone ("pthread_mutex_lock"), null when the address is in no sized symbol.</summary>
    public string? Function(ulong address) => At(address) is { Table: { } table } module ? table.FunctionAt(address - module.Bias)?.Name : null;

    /// <summary>Whether <paramref name="address"/> lies in an executable segment of a module whose file was read.</summary>
    public bool IsCode(ulong address) => At(address) is { Table: { } table } module && table.IsCode(address - module.Bias);

    /// <summary>The target address and size of symbol <paramref name="symbol"/> in the first module whose file name starts with <paramref name="filePrefix"/>, and that module's name.</summary>
    public (ulong Address, ulong Size, string Module)? Symbol(string filePrefix, string symbol)
    {
        foreach (Module m in _modules)
            if (m.Name.StartsWith(filePrefix, StringComparison.Ordinal) && m.Table?.Find(symbol) is { } s)
                return (s.Value + m.Bias, s.Size, m.Name);
        return null;
    }

    /// <summary>"libnlgate.so!gate" when a data object of a module holds <paramref name="address"/>; null otherwise.</summary>
    public string? DataName(ulong address) =>
        At(address) is { Table: { } table } module && table.ObjectAt(address - module.Bias) is { } o ? $"{module.Name}!{o.Name}{(o.Offset == 0 ? "" : $"+0x{o.Offset:x}")}" : null;

    private Module? At(ulong address) => SortedRanges.Find(_modules, address) is int i and >= 0 ? _modules[i] : null;
}
