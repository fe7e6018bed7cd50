using System.Text;

namespace DiagExt.Core.Native.Elf;

/// <summary>
/// The symbols of a 64-bit little-endian ELF shared object on disk (.dynsym, and .symtab when not stripped) and its
/// executable PT_LOAD ranges, read once and held in memory: enough to name a return address ("libc.so.6!dlopen+0x4f")
/// and to find a data symbol ("_rtld_global") in a Linux dump whose modules are on this machine. Addresses are the
/// file's virtual addresses; the caller adds the module's load bias.
/// </summary>
internal sealed class ElfSymbolTable
{
    /// <summary>Most symbols read from one file (libc has about 3,000 in .dynsym; a debug build tens of thousands).</summary>
    public const int MaxSymbols = 200_000;

    /// <summary>Most section headers read: real files have under 64.</summary>
    private const int MaxSections = 4096;

    /// <summary>Longest symbol name kept; a longer one is cut (C++ names can be long, hostile ones endless).</summary>
    private const int MaxNameBytes = 512;

    private const uint SectionSymtab = 2, SectionDynsym = 11;
    private const uint LoadType = 1, ExecuteFlag = 1;
    private const int SymbolEntry = 24, SectionEntry = 64;
    private const byte TypeObject = 1, TypeFunction = 2;

    /// <summary>One named symbol with a size: a function or a data object.</summary>
    public readonly record struct Symbol(ulong Value, ulong Size, string Name, bool IsFunction);

    private readonly Symbol[] _functions;
    private readonly Symbol[] _objects;
    private readonly Dictionary<string, Symbol> _byName;
    private readonly (ulong Start, ulong End)[] _code;

    private ElfSymbolTable(Symbol[] functions, Symbol[] objects, Dictionary<string, Symbol> byName, (ulong, ulong)[] code, ulong firstLoad)
    {
        _functions = functions;
        _objects = objects;
        _byName = byName;
        _code = code;
        FirstLoadAddress = firstLoad;
    }

    /// <summary>The virtual address of the first PT_LOAD, page-aligned down: the module's image base minus this is its load bias.</summary>
    public ulong FirstLoadAddress { get; }

    /// <summary>Reads <paramref name="path"/>; null when it is missing, unreadable or not a 64-bit little-endian ELF file.</summary>
    public static ElfSymbolTable? Load(string path)
    {
        try
        {
            using var file = new FileBytes(path);
            return Read(file);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or InvalidDataException)
        {
            return null;
        }
    }

    internal static ElfSymbolTable? Read(FileBytes file)
    {
        if (file.ReadExactly(0, 64) is not { } header || !ElfFile.HasElfMagic(header) || header[4] != 2 || header[5] != 1)
            return null;
        ulong phoff = BinaryReads.U64(header, 32), shoff = BinaryReads.U64(header, 40);
        int phentsize = BinaryReads.U16(header, 54), phnum = BinaryReads.U16(header, 56);
        int shentsize = BinaryReads.U16(header, 58), shnum = BinaryReads.U16(header, 60);
        if (phentsize < 56 || shnum > MaxSections || (shnum > 0 && shentsize < SectionEntry))
            return null;

        var code = new List<(ulong, ulong)>();
        ulong firstLoad = ulong.MaxValue;
        for (int i = 0; i < phnum; i++)
        {
            if (file.ReadExactly(Offset(phoff, (ulong)i * (ulong)phentsize), 56) is not { } ph || BinaryReads.U32(ph, 0) != LoadType)
                continue;
            ulong vaddr = BinaryReads.U64(ph, 16), memsz = BinaryReads.U64(ph, 40);
            firstLoad = Math.Min(firstLoad, vaddr & ~0xFFFUL);
            if ((BinaryReads.U32(ph, 4) & ExecuteFlag) != 0 && vaddr + memsz > vaddr)
                code.Add((vaddr, vaddr + memsz));
        }
        if (firstLoad == ulong.MaxValue)
            return null;

        var symbols = new List<Symbol>();
        var byName = new Dictionary<string, Symbol>(StringComparer.Ordinal);
        for (int i = 0; i < shnum && symbols.Count < MaxSymbols; i++)
        {
            if (file.ReadExactly(Offset(shoff, (ulong)i * (ulong)shentsize), SectionEntry) is not { } sh)
                continue;
            uint type = BinaryReads.U32(sh, 4);
            if (type is not (SectionSymtab or SectionDynsym))
                continue;
            uint link = BinaryReads.U32(sh, 40);
            if (link >= shnum || file.ReadExactly(Offset(shoff, (ulong)link * (ulong)shentsize), SectionEntry) is not { } strings)
                continue;
            ReadSymbols(file, BinaryReads.U64(sh, 24), BinaryReads.U64(sh, 32), BinaryReads.U64(strings, 24), BinaryReads.U64(strings, 32), symbols, byName);
        }
        // Several names for one address (pthread_mutex_lock, __pthread_mutex_lock): the public-looking one, deterministically.
        return new ElfSymbolTable(Sorted(symbols.Where(s => s.IsFunction)), Sorted(symbols.Where(s => !s.IsFunction)), byName, [.. code], firstLoad);
    }

    /// <summary>By address; of several names for one address (pthread_mutex_lock, __pthread_mutex_lock) the public-looking one, deterministically.</summary>
    private static Symbol[] Sorted(IEnumerable<Symbol> symbols) =>
        [.. symbols.OrderBy(f => f.Value).ThenBy(f => f.Name.StartsWith('_')).ThenBy(f => f.Name, StringComparer.Ordinal).DistinctBy(f => f.Value)];

    private static void ReadSymbols(FileBytes file, ulong offset, ulong size, ulong stringsOffset, ulong stringsSize, List<Symbol> symbols, Dictionary<string, Symbol> byName)
    {
        ulong count = Math.Min(size / SymbolEntry, MaxSymbols);
        if (count == 0 || stringsSize == 0)
            return;
        // A section's claimed sizes are checked against what the file holds: a short read ends the table.
        byte[]? table = file.ReadExactly(Offset(offset, 0), (int)(count * SymbolEntry));
        byte[]? names = file.ReadExactly(Offset(stringsOffset, 0), (int)Math.Min(stringsSize, int.MaxValue / 2));
        if (table is null || names is null)
            return;
        for (int i = 0; i < (int)count; i++)
        {
            int at = i * SymbolEntry;
            uint name = BinaryReads.U32(table, at);
            byte kind = (byte)(table[at + 4] & 0xF);
            ushort section = BinaryReads.U16(table, at + 6);
            ulong value = BinaryReads.U64(table, at + 8), length = BinaryReads.U64(table, at + 16);
            if (kind is not (TypeFunction or TypeObject) || section == 0 || value == 0 || name == 0 || name >= names.Length)
                continue;
            int end = Array.IndexOf(names, (byte)0, (int)name, Math.Min(MaxNameBytes, names.Length - (int)name));
            string text = Encoding.ASCII.GetString(names, (int)name, (end < 0 ? Math.Min(MaxNameBytes, names.Length - (int)name) : end - (int)name));
            var symbol = new Symbol(value, length, text, kind == TypeFunction);
            byName.TryAdd(text, symbol);
            symbols.Add(symbol);
        }
    }

    /// <summary>A file offset from an ELF field; past long.MaxValue reads nothing.</summary>
    private static long Offset(ulong start, ulong plus) => start + plus < start || start + plus > long.MaxValue ? long.MaxValue : (long)(start + plus);

    /// <summary>The symbol named <paramref name="name"/> (a function or a data object).</summary>
    public Symbol? Find(string name) => _byName.TryGetValue(name, out Symbol s) ? s : null;

    /// <summary>Whether a file virtual address lies in an executable segment.</summary>
    public bool IsCode(ulong address) => _code.Any(c => address >= c.Start && address < c.End);

    /// <summary>The function holding a file virtual address and the offset into it; null outside every sized function.</summary>
    public (string Name, ulong Offset)? FunctionAt(ulong address) => At(_functions, address);

    /// <summary>The data object holding a file virtual address and the offset into it.</summary>
    public (string Name, ulong Offset)? ObjectAt(ulong address) => At(_objects, address);

    private static (string Name, ulong Offset)? At(Symbol[] sorted, ulong address)
    {
        int lo = 0, hi = sorted.Length - 1, found = -1;
        while (lo <= hi)
        {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid].Value <= address)
            {
                found = mid;
                lo = mid + 1;
            }
            else
                hi = mid - 1;
        }
        if (found < 0)
            return null;
        Symbol f = sorted[found];
        ulong offset = address - f.Value;
        return offset < Math.Max(f.Size, 1) ? (f.Name, offset) : null;
    }
}
