namespace DiagExt.Core.Native.Pe;

/// <summary>One IMAGE_SECTION_HEADER, as much as the symbolizer needs: where it is and whether it holds code.</summary>
internal readonly record struct PeSection(string Name, uint VirtualAddress, uint VirtualSize, uint Characteristics)
{
    private const uint MemExecute = 0x20000000;
    private const uint ContainsCode = 0x00000020;

    public bool IsExecutable => (Characteristics & (MemExecute | ContainsCode)) != 0;

    public bool Contains(uint rva) => rva >= VirtualAddress && rva - VirtualAddress < VirtualSize;
}
