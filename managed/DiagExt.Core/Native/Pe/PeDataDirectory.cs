namespace DiagExt.Core.Native.Pe;

/// <summary>One IMAGE_DATA_DIRECTORY: an RVA range inside the image.</summary>
internal readonly record struct PeDataDirectory(uint Rva, uint Size)
{
    public bool IsPresent => Rva != 0 && Size != 0;

    public bool Contains(uint rva) => rva >= Rva && rva - Rva < Size;
}
