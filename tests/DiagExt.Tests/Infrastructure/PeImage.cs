using System.Buffers.Binary;
using System.Reflection.PortableExecutable;
using System.Text;

namespace DiagExt.Tests.Infrastructure;

/// <summary>The parts of a Windows DLL the export-table tests check: machine, exported names, imported DLLs.</summary>
public sealed class PeImage
{
    private readonly byte[] _bytes;
    private readonly PEHeaders _headers;

    public PeImage(string path)
    {
        _bytes = File.ReadAllBytes(path);
        using var reader = new PEReader(new MemoryStream(_bytes));
        _headers = reader.PEHeaders;
    }

    public Machine Machine => _headers.CoffHeader.Machine;

    public bool IsDll => _headers.CoffHeader.Characteristics.HasFlag(Characteristics.Dll);

    /// <summary>Exported names exactly as stored (an x86 __stdcall name would read "_dictcycle@8").</summary>
    public IReadOnlyList<string> ExportNames()
    {
        DirectoryEntry directory = _headers.PEHeader!.ExportTableDirectory;
        if (directory.Size == 0)
            return [];
        int table = Offset(directory.RelativeVirtualAddress);
        int count = BinaryPrimitives.ReadInt32LittleEndian(_bytes.AsSpan(table + 24));
        int names = Offset(BinaryPrimitives.ReadInt32LittleEndian(_bytes.AsSpan(table + 32)));
        return Enumerable.Range(0, count)
            .Select(i => CString(Offset(BinaryPrimitives.ReadInt32LittleEndian(_bytes.AsSpan(names + 4 * i)))))
            .ToList();
    }

    /// <summary>The DLLs the image imports, lower-cased.</summary>
    public IReadOnlyList<string> ImportedDlls()
    {
        DirectoryEntry directory = _headers.PEHeader!.ImportTableDirectory;
        var result = new List<string>();
        for (int entry = Offset(directory.RelativeVirtualAddress); ; entry += 20)
        {
            int nameRva = BinaryPrimitives.ReadInt32LittleEndian(_bytes.AsSpan(entry + 12));
            if (nameRva == 0)
                return result;
            result.Add(CString(Offset(nameRva)).ToLowerInvariant());
        }
    }

    private int Offset(int rva)
    {
        foreach (SectionHeader section in _headers.SectionHeaders)
            if (rva >= section.VirtualAddress && rva < section.VirtualAddress + Math.Max(section.VirtualSize, section.SizeOfRawData))
                return rva - section.VirtualAddress + section.PointerToRawData;
        throw new InvalidDataException($"RVA 0x{rva:x} is in no section");
    }

    private string CString(int offset)
    {
        int end = Array.IndexOf(_bytes, (byte)0, offset);
        return Encoding.ASCII.GetString(_bytes, offset, end - offset);
    }
}
