namespace DiagExt.Core.Native.Elf;

/// <summary>The fields of an ELF program header DiagExt uses.</summary>
internal readonly record struct ElfProgramHeader(uint Type, ulong Offset, ulong VirtualAddress, ulong FileSize, ulong MemorySize)
{
    public const uint Load = 1;
    public const uint Note = 4;
}
