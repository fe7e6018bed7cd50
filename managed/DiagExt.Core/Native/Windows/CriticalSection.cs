namespace DiagExt.Core.Native.Windows;

/// <summary>
/// An RTL_CRITICAL_SECTION as the dump holds it, read without judging it (<see cref="CriticalSectionProbe"/> decides
/// whether it is one). Two LockCount encodings exist: since Windows Server 2003 SP1 bit 0 clear means locked, bit 1
/// clear means a waiter was woken, and the other bits are the ones' complement of the waiter count (-1 free, -2
/// locked with no waiters); Windows XP and Wine count instead (-1 free, then +1 for every entry, the owner's
/// recursive ones included: owned once with n waiters is n). The two never collide: a count is never below -1, a
/// bit-encoded locked value always is. Whether it is held is decided the portable way: an owner and a recursion count.
/// </summary>
internal sealed record CriticalSection(ulong Address, ulong DebugInfo, int LockCount, int RecursionCount, ulong OwningThread, ulong LockSemaphore)
{
    public bool IsHeld => OwningThread != 0 && RecursionCount > 0;

    public bool UsesCountingEncoding => LockCount >= 0;

    /// <summary>Threads waiting for it, as LockCount tells (0 when free); in the counting encoding less the owner's recursive entries.</summary>
    public int Waiters => LockCount switch
    {
        -1 => 0,
        >= 0 => Math.Max(0, LockCount - Math.Max(0, RecursionCount - 1)),
        _ => (~LockCount) >> 2,
    };

    /// <summary>What LockCount says about the lock, for evidence lines.</summary>
    public string LockCountMeaning => LockCount switch
    {
        -1 => "free",
        >= 0 => $"owned, {Plural(Waiters, "waiter")} (counting encoding: Windows XP, Wine)",
        _ when (LockCount & 1) == 0 => $"locked, {Plural(Waiters, "waiter")}{((LockCount & 2) == 0 ? ", one woken" : "")} (Vista+ bit encoding)",
        _ => $"unlocked, {Plural(Waiters, "waiter")} (Vista+ bit encoding)",
    };

    public static CriticalSection? Read(IMemoryReader memory, ulong address, WindowsLayout layout)
    {
        if (memory.ReadExactly(address, layout.CsSize) is not { } raw)
            return null;
        ulong Pointer(int offset) => layout.PointerSize == 8 ? BinaryReads.U64(raw, offset) : BinaryReads.U32(raw, offset);
        return new CriticalSection(
            address,
            Pointer(0),
            (int)BinaryReads.U32(raw, layout.CsLockCount),
            (int)BinaryReads.U32(raw, layout.CsRecursionCount),
            Pointer(layout.CsOwningThread),
            Pointer(layout.CsLockSemaphore));
    }

    private static string Plural(int n, string what) => n == 1 ? $"1 {what}" : $"{n} {what}s";
}
