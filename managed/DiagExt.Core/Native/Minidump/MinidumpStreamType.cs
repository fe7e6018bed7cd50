namespace DiagExt.Core.Native.Minidump;

/// <summary>The MINIDUMP_STREAM_TYPE values DiagExt reads (minidumpapiset.h).</summary>
internal enum MinidumpStreamType : uint
{
    ThreadList = 3,
    ModuleList = 4,
    MemoryList = 5,
    SystemInfo = 7,
    Memory64List = 9,
    HandleData = 12,
    MiscInfo = 15,
    ThreadInfoList = 17,

    /// <summary>Wine's dbghelp writes its ELF module list here (minidump.c: "part of MS reserved streams"): only Wine's writer does.</summary>
    WineElfModuleList = 0xFFF0,
}
