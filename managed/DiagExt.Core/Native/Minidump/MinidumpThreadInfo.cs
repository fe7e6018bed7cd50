namespace DiagExt.Core.Native.Minidump;

/// <summary>
/// One MINIDUMP_THREAD_INFO (64 bytes, stream 17). Times are in 100 ns units; the stream is written only
/// with MiniDumpWithThreadInfo (procdump -ma does, Wine does not).
/// </summary>
internal sealed record MinidumpThreadInfo(
    uint ThreadId,
    uint DumpFlags,
    ulong CreateTime,
    ulong ExitTime,
    ulong KernelTime,
    ulong UserTime,
    ulong StartAddress)
{
    public const int MinimumEntrySize = 56;

    public TimeSpan User => TimeSpan.FromTicks((long)Math.Min(UserTime, (ulong)long.MaxValue));

    public TimeSpan Kernel => TimeSpan.FromTicks((long)Math.Min(KernelTime, (ulong)long.MaxValue));

    /// <summary>Creation time as UTC, when the FILETIME is plausible.</summary>
    public DateTime? Created => FileTimes.ToUtc(CreateTime);
}
