namespace DiagExt.Core.Native.Minidump;

/// <summary>One MINIDUMP_MODULE (108 bytes) with its name resolved.</summary>
internal sealed record MinidumpModule(ulong BaseOfImage, uint SizeOfImage, uint TimeDateStamp, string Name, Version? FileVersion)
{
    public const int Size = 108;

    public string FileName => Name.Replace('\\', '/').Split('/')[^1];

    public bool Contains(ulong address) => address >= BaseOfImage && address - BaseOfImage < SizeOfImage;
}
