namespace DiagExt.Core.Native.Minidump;

/// <summary>The parts of MINIDUMP_SYSTEM_INFO DiagExt uses.</summary>
internal sealed record MinidumpSystemInfo(ushort ProcessorArchitecture, uint MajorVersion, uint MinorVersion, uint BuildNumber, byte NumberOfProcessors)
{
    public const ushort ArchitectureX86 = 0;
    public const ushort ArchitectureArm = 5;
    public const ushort ArchitectureAmd64 = 9;
    public const ushort ArchitectureArm64 = 12;

    public string ArchitectureName => ProcessorArchitecture switch
    {
        ArchitectureX86 => "x86",
        ArchitectureAmd64 => "x64",
        ArchitectureArm => "arm",
        ArchitectureArm64 => "arm64",
        _ => $"architecture {ProcessorArchitecture}",
    };

    public bool Is64Bit => ProcessorArchitecture is ArchitectureAmd64 or ArchitectureArm64;

    public string WindowsVersion => $"{MajorVersion}.{MinorVersion}.{BuildNumber}";
}
