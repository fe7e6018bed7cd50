namespace DiagExt.Core.Native.Elf;

/// <summary>One ELF note: owner name, type and descriptor bytes.</summary>
internal sealed record ElfNote(string Name, uint Type, byte[] Descriptor)
{
    public const uint PrStatus = 1;
    public const uint GnuBuildId = 3;
}
