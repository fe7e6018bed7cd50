namespace DiagExt.Core.Native.Windows;

/// <summary>How a process's RTL_CRITICAL_SECTION.LockCount is encoded (see <see cref="CriticalSection"/>).</summary>
internal enum CriticalSectionEncoding
{
    /// <summary>Not known (no system information): either encoding is accepted.</summary>
    Unknown,

    /// <summary>Windows XP and Wine: -1 free, then one more for every entry.</summary>
    Counting,

    /// <summary>Windows Vista and later (Server 2003 SP1): bit 0 locked (clear), bit 1 woken, the rest a waiter count.</summary>
    Bits,
}
