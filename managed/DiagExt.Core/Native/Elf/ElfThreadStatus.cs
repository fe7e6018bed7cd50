namespace DiagExt.Core.Native.Elf;

/// <summary>
/// What an NT_PRSTATUS note says about one thread: its id and the user/system CPU time the kernel recorded.
/// createdump zero-fills everything but the pid and registers, so its times are zero and mean "not recorded".
/// </summary>
internal sealed record ElfThreadStatus(uint ThreadId, TimeSpan UserTime, TimeSpan SystemTime)
{
    /// <summary>Parses elf_prstatus for 64-bit (pid at 32, timevals at 48/64) or 32-bit (24, 40/48) targets.</summary>
    public static ElfThreadStatus? Parse(ReadOnlySpan<byte> desc, bool is64Bit)
    {
        if (is64Bit)
        {
            if (desc.Length < 80)
                return null;
            return new ElfThreadStatus(BinaryReads.U32(desc, 32), TimeVal(BinaryReads.U64(desc, 48), BinaryReads.U64(desc, 56)), TimeVal(BinaryReads.U64(desc, 64), BinaryReads.U64(desc, 72)));
        }
        if (desc.Length < 56)
            return null;
        return new ElfThreadStatus(BinaryReads.U32(desc, 24), TimeVal(BinaryReads.U32(desc, 40), BinaryReads.U32(desc, 44)), TimeVal(BinaryReads.U32(desc, 48), BinaryReads.U32(desc, 52)));
    }

    private static TimeSpan TimeVal(ulong seconds, ulong microseconds)
    {
        // A hostile note can hold any value: clamp instead of overflowing.
        const ulong maxSeconds = 100UL * 365 * 24 * 3600;
        return TimeSpan.FromSeconds(Math.Min(seconds, maxSeconds)) + TimeSpan.FromTicks((long)Math.Min(microseconds, 1_000_000UL) * 10);
    }
}
