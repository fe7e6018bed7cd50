using DiagExt.Core.Native.Elf;
using DiagExt.Core.Native.Minidump;

namespace DiagExt.Core.Targets;

public enum DumpFormat
{
    Unknown,
    Empty,
    WindowsMinidump,
    ElfCore,
    ElfNotCore,
    Gzip,
    Zip,
}

/// <summary>Identifies a file by its first bytes, before anything trusts its contents.</summary>
public static class DumpFormatProbe
{
    public static DumpFormat Identify(ReadOnlySpan<byte> head)
    {
        if (head.IsEmpty)
            return DumpFormat.Empty;
        if (head.Length >= 4 && BitConverter.ToUInt32(head[..4]) == MinidumpDirectory.Signature)
            return DumpFormat.WindowsMinidump;
        // An ELF file cut before its e_type may well be a core: the ELF reader then says how short it is.
        if (ElfFile.HasElfMagic(head))
            return head.Length < 18 || BitConverter.ToUInt16(head[16..18]) == ElfFile.TypeCore ? DumpFormat.ElfCore : DumpFormat.ElfNotCore;
        if (head.Length >= 2 && head[0] == 0x1F && head[1] == 0x8B)
            return DumpFormat.Gzip;
        if (head.Length >= 4 && head[0] == (byte)'P' && head[1] == (byte)'K' && head[2] == 3 && head[3] == 4)
            return DumpFormat.Zip;
        return DumpFormat.Unknown;
    }

    public static bool IsDump(DumpFormat format) => format is DumpFormat.WindowsMinidump or DumpFormat.ElfCore;

    /// <summary>Why a file of this format is not a dump DiagExt can read, in words (null for dumps and archives).</summary>
    public static string? Problem(DumpFormat format) => format switch
    {
        DumpFormat.WindowsMinidump or DumpFormat.ElfCore or DumpFormat.Gzip or DumpFormat.Zip => null,
        DumpFormat.Empty => "the file is empty, not a dump",
        DumpFormat.ElfNotCore => "an ELF file, but not a core dump",
        _ => "not a dump file (neither a Windows minidump nor an ELF core dump)",
    };

    public static DumpFormat Identify(string path)
    {
        Span<byte> head = stackalloc byte[64];
        using FileStream stream = File.OpenRead(path);
        int read = stream.ReadAtLeast(head, head.Length, throwOnEndOfStream: false);
        return Identify(head[..read]);
    }
}
