using System.Buffers.Binary;

namespace DiagExt.Fuzz.Targets.Pe;

/// <summary>
/// Lays a PE file out the way the Windows loader maps it (headers, then each section at its RVA), so DLL files on
/// disk can seed the reader of images in dump memory. Null for anything that is not a PE file or maps too large.
/// </summary>
public static class PeMapper
{
    public const int MaxImage = 8 * 1024 * 1024;

    public static byte[]? Map(ReadOnlySpan<byte> file)
    {
        if (file.Length < 0x40 || BinaryPrimitives.ReadUInt16LittleEndian(file) != 0x5A4D)
            return null;
        int pe = BinaryPrimitives.ReadInt32LittleEndian(file[0x3C..]);
        if (pe <= 0 || pe + 24 > file.Length || BinaryPrimitives.ReadUInt32LittleEndian(file[pe..]) != 0x4550)
            return null;
        int sections = BinaryPrimitives.ReadUInt16LittleEndian(file[(pe + 6)..]);
        int optional = pe + 24, optionalSize = BinaryPrimitives.ReadUInt16LittleEndian(file[(pe + 20)..]);
        if (optional + 64 > file.Length)
            return null;
        uint sizeOfImage = BinaryPrimitives.ReadUInt32LittleEndian(file[(optional + 56)..]);
        uint sizeOfHeaders = BinaryPrimitives.ReadUInt32LittleEndian(file[(optional + 60)..]);
        if (sizeOfImage == 0 || sizeOfImage > MaxImage || sizeOfHeaders > file.Length)
            return null;
        byte[] image = new byte[sizeOfImage];
        file[..(int)Math.Min(sizeOfHeaders, sizeOfImage)].CopyTo(image);
        for (int i = 0; i < sections; i++)
        {
            int header = optional + optionalSize + i * 40;
            if (header + 40 > file.Length)
                return null;
            uint virtualAddress = BinaryPrimitives.ReadUInt32LittleEndian(file[(header + 12)..]);
            uint rawSize = BinaryPrimitives.ReadUInt32LittleEndian(file[(header + 16)..]);
            uint rawOffset = BinaryPrimitives.ReadUInt32LittleEndian(file[(header + 20)..]);
            uint virtualSize = BinaryPrimitives.ReadUInt32LittleEndian(file[(header + 8)..]);
            long count = Math.Min(Math.Min(rawSize, virtualSize == 0 ? rawSize : virtualSize), (long)file.Length - rawOffset);
            count = Math.Min(count, (long)sizeOfImage - virtualAddress);
            if (count > 0)
                file.Slice((int)rawOffset, (int)count).CopyTo(image.AsSpan((int)virtualAddress));
        }
        return image;
    }

    /// <summary>The fuzz input for an image: its base address (8 bytes) then the image.</summary>
    public static byte[] Input(ulong imageBase, ReadOnlySpan<byte> image) => [.. BitConverter.GetBytes(imageBase), .. image];
}
