namespace DiagExt.Core.Native.Windows;

/// <summary>
/// Where the loader-related fields of TEB, PEB and RTL_CRITICAL_SECTION are for 32-bit and 64-bit processes.
/// Sources: wine include/winternl.h (TEB, TEB64, PEB, PEB64), crashpad util/win/process_structs.h; the same
/// offsets hold from Windows XP to 11 for the fields read here, except the two flags noted below.
/// </summary>
internal sealed record WindowsLayout(
    int PointerSize,
    int TebStackBase,
    int TebStackLimit,
    int TebSelf,
    int TebClientIdThread,
    int TebPeb,
    int TebWaitingOnLoaderLock,
    int TebSameTebFlags,
    int PebLoaderLock,
    int CsLockCount,
    int CsRecursionCount,
    int CsOwningThread,
    int CsLockSemaphore,
    int CsSize,
    int CsDebugInfoCriticalSection)
{
    /// <summary>TEB.SameTebFlags bit set on the thread that owns loader work (Windows 10+).</summary>
    public const ushort LoadOwnerFlag = 0x1000;

    public static WindowsLayout X86 { get; } = new(
        PointerSize: 4,
        TebStackBase: 0x04,
        TebStackLimit: 0x08,
        TebSelf: 0x18,
        TebClientIdThread: 0x24,
        TebPeb: 0x30,
        TebWaitingOnLoaderLock: 0xF84,
        TebSameTebFlags: 0xFCA,
        PebLoaderLock: 0xA0,
        CsLockCount: 0x04,
        CsRecursionCount: 0x08,
        CsOwningThread: 0x0C,
        CsLockSemaphore: 0x10,
        CsSize: 0x18,
        CsDebugInfoCriticalSection: 0x04);

    public static WindowsLayout X64 { get; } = new(
        PointerSize: 8,
        TebStackBase: 0x08,
        TebStackLimit: 0x10,
        TebSelf: 0x30,
        TebClientIdThread: 0x48,
        TebPeb: 0x60,
        TebWaitingOnLoaderLock: 0x1760,
        TebSameTebFlags: 0x17EE,
        PebLoaderLock: 0x110,
        CsLockCount: 0x08,
        CsRecursionCount: 0x0C,
        CsOwningThread: 0x10,
        CsLockSemaphore: 0x18,
        CsSize: 0x28,
        CsDebugInfoCriticalSection: 0x08);

    /// <summary>TEB64.TlsSlots[1] (WOW64_TLS_CPURESERVED): the WOW64 CPU state, whose x86 CONTEXT starts at +4.</summary>
    public const int Teb64Wow64CpuReservedSlot = 0x1480 + 8;

    /// <summary>TEB64.WowTebOffset (Windows 10+): signed distance from the 64-bit TEB to the 32-bit one.</summary>
    public const int Teb64WowTebOffset = 0x180C;

    /// <summary>Where the 32-bit TEB of a WOW64 thread is when WowTebOffset is not set (every Windows version).</summary>
    public const int DefaultWowTebOffset = 0x2000;
}
