namespace DiagExt.Core.Native.Minidump;

/// <summary>A captured range of target memory and where its bytes are in the dump file.</summary>
internal readonly record struct MinidumpMemoryRange(ulong Start, ulong Size, long FileOffset) : IAddressRange
{
    public ulong End => Start + Size;

    public bool Contains(ulong address) => address >= Start && address - Start < Size;
}
