namespace DiagExt.Core.Native.Minidump;

/// <summary>MINIDUMP_MISC_INFO: process id and process times (seconds) when the flags say they are present.</summary>
internal sealed record MinidumpMiscInfo(uint? ProcessId, DateTime? ProcessCreateTime, TimeSpan? ProcessUserTime, TimeSpan? ProcessKernelTime);
