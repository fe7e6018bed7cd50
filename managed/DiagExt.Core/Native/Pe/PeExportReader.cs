using System.Text;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Native.Pe;

/// <summary>
/// Reads the named exports of an image mapped in target memory, sorted by RVA. Forwarders (an RVA inside the
/// export directory: "NTDLL.RtlAllocateHeap") name code in another module and are skipped. Every count and
/// every RVA is checked: a broken table gives fewer exports, never an exception.
/// </summary>
internal static class PeExportReader
{
    private const int MaxNameLength = 256;
    private const int MaxDirectoryBytes = 16 * 1024 * 1024;

    public static IReadOnlyList<PeExport> Read(IMemoryReader memory, ulong imageBase, PeHeaders headers, Limits limits)
    {
        PeDataDirectory directory = headers.Export;
        if (!directory.IsPresent || directory.Size < 40 || directory.Size > MaxDirectoryBytes)
            return [];
        // Names and tables usually live inside the directory's range: one read serves almost every lookup.
        byte[] block = new byte[directory.Size];
        int captured = memory.ReadMemory(imageBase + directory.Rva, block);
        var view = new ImageView(memory, imageBase, directory.Rva, block.AsSpan(0, captured).ToArray());

        byte[]? header = view.Read(directory.Rva, 40);
        if (header is null)
            return [];
        uint functionCount = BinaryReads.U32(header, 20);
        uint nameCount = BinaryReads.U32(header, 24);
        if (functionCount > limits.MaxExportsPerModule || nameCount > limits.MaxExportsPerModule)
            return [];
        byte[]? functions = view.Read(BinaryReads.U32(header, 28), (int)functionCount * 4);
        byte[]? names = view.Read(BinaryReads.U32(header, 32), (int)nameCount * 4);
        byte[]? ordinals = view.Read(BinaryReads.U32(header, 36), (int)nameCount * 2);
        if (functions is null || names is null || ordinals is null)
            return [];

        var exports = new List<PeExport>((int)nameCount);
        for (int i = 0; i < nameCount; i++)
        {
            ushort ordinal = BinaryReads.U16(ordinals, i * 2);
            if (ordinal >= functionCount)
                continue;
            uint rva = BinaryReads.U32(functions, ordinal * 4);
            if (rva == 0 || directory.Contains(rva) || rva >= headers.SizeOfImage)
                continue; // forwarder, or not inside this image
            if (view.ReadName(BinaryReads.U32(names, i * 4)) is { } name)
                exports.Add(new PeExport(name, rva));
        }
        exports.Sort((a, b) => a.Rva != b.Rva ? a.Rva.CompareTo(b.Rva) : string.CompareOrdinal(a.Name, b.Name));
        return exports;
    }

    /// <summary>Reads by RVA from the cached export directory when possible, else from target memory.</summary>
    private sealed class ImageView(IMemoryReader memory, ulong imageBase, uint blockRva, byte[] block)
    {
        public byte[]? Read(uint rva, int count)
        {
            if (rva >= blockRva && (ulong)(rva - blockRva) + (ulong)count <= (ulong)block.Length)
                return block.AsSpan((int)(rva - blockRva), count).ToArray();
            return memory.ReadExactly(imageBase + rva, count);
        }

        public string? ReadName(uint rva)
        {
            ReadOnlySpan<byte> bytes;
            if (rva >= blockRva && rva - blockRva < (uint)block.Length)
            {
                bytes = block.AsSpan((int)(rva - blockRva));
            }
            else
            {
                byte[] buffer = new byte[MaxNameLength];
                bytes = buffer.AsSpan(0, memory.ReadMemory(imageBase + rva, buffer));
            }
            int end = bytes[..Math.Min(bytes.Length, MaxNameLength)].IndexOf((byte)0);
            if (end <= 0)
                return null;
            ReadOnlySpan<byte> name = bytes[..end];
            foreach (byte c in name)
                if (c is < 0x21 or > 0x7E)
                    return null; // export names are printable ASCII; anything else is not a name table
            return Encoding.ASCII.GetString(name);
        }
    }
}
