using DiagExt.Core.Native.Elf;

namespace DiagExt.Tests.Hostile;

/// <summary>
/// A copy of an ELF core whose target memory can be overwritten and restored: target addresses are mapped to file
/// offsets through the core's PT_LOAD headers (read with DiagExt's own ELF reader).
/// </summary>
public sealed class CorePatch : IDisposable
{
    private readonly List<(ulong Address, ulong Size, ulong Offset)> _loads;
    private readonly Stack<(long Offset, byte[] Original)> _undo = new();
    private readonly FileStream _file;

    public CorePatch(string core, string copy)
    {
        Directory.CreateDirectory(System.IO.Path.GetDirectoryName(copy)!); // a test may be the first to use the folder
        File.Copy(core, copy, overwrite: true);
        Path = copy;
        using (ElfCoreFile elf = ElfCoreFile.Open(copy))
            _loads = [.. elf.Elf.ProgramHeaders.Where(h => h.Type == ElfProgramHeader.Load && h.FileSize > 0).Select(h => (h.VirtualAddress, h.FileSize, h.Offset))];
        _file = new FileStream(copy, FileMode.Open, FileAccess.ReadWrite);
    }

    public string Path { get; }

    public long OffsetOf(ulong address)
    {
        foreach (var (start, size, offset) in _loads)
            if (address >= start && address - start < size)
                return (long)(offset + (address - start));
        throw new ArgumentException($"0x{address:x} is not in the core");
    }

    public void Write(ulong address, byte[] bytes)
    {
        long at = OffsetOf(address);
        var original = new byte[bytes.Length];
        _file.Position = at;
        _file.ReadExactly(original);
        _undo.Push((at, original));
        _file.Position = at;
        _file.Write(bytes);
        _file.Flush();
    }

    public void WriteUInt64(ulong address, ulong value) => Write(address, BitConverter.GetBytes(value));

    public void WriteInt32(ulong address, int value) => Write(address, BitConverter.GetBytes(value));

    /// <summary>Puts back every byte written since the core was copied.</summary>
    public void Restore()
    {
        while (_undo.TryPop(out var u))
        {
            _file.Position = u.Offset;
            _file.Write(u.Original);
        }
        _file.Flush();
    }

    /// <summary>Deletes the copy: a core is 100-200 MB, and a run patches a dozen (a CI disk ran out).</summary>
    public void Dispose()
    {
        _file.Dispose();
        File.Delete(Path);
    }
}
