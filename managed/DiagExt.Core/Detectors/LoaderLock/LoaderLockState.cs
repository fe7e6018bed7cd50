using DiagExt.Core.Native.Windows;

namespace DiagExt.Core.Detectors.LoaderLock;

internal enum LoaderLockStatus
{
    /// <summary>The dump holds no thread whose TEB memory was captured: the PEB cannot be found.</summary>
    TebNotCaptured,

    /// <summary>The TEB names the PEB, but the PEB's memory is not in the dump.</summary>
    PebNotCaptured,

    /// <summary>PEB.LoaderLock is null (a process too young or too broken to have one).</summary>
    NoLock,

    /// <summary>PEB.LoaderLock points to memory the dump did not capture.</summary>
    LockNotCaptured,

    Free,

    Held,
}

/// <summary>What the dump says about the loader lock: where it is and how it reads, or exactly what is missing.</summary>
internal sealed record LoaderLockState(LoaderLockStatus Status, ulong Peb, ulong LockAddress, CriticalSection? Lock)
{
    /// <summary>One sentence for the report when there is no finding.</summary>
    public string Describe(WindowsLayout layout) => Status switch
    {
        LoaderLockStatus.TebNotCaptured => "PEB not captured: this dump holds no thread's TEB, so neither the PEB nor its LoaderLock can be read; loader lock state unknown",
        LoaderLockStatus.PebNotCaptured => $"PEB not captured: the TEB points to the PEB at {(Address)Peb}, which is not in this dump; loader lock state unknown",
        LoaderLockStatus.NoLock => $"PEB.LoaderLock (PEB {(Address)Peb} + 0x{layout.PebLoaderLock:x}) is null: the process has no loader lock to hold",
        LoaderLockStatus.LockNotCaptured => $"loader lock state not captured: PEB.LoaderLock points to {(Address)LockAddress}, whose memory is not in this dump",
        LoaderLockStatus.Free => $"loader lock at {(Address)LockAddress} is free ({Fields})",
        _ => $"loader lock at {(Address)LockAddress} is held by thread 0x{Lock!.OwningThread:x} ({Fields})",
    };

    /// <summary>"LockCount -1 (free), RecursionCount 0, OwningThread 0".</summary>
    public string Fields => Lock is { } cs
        ? $"LockCount {cs.LockCount} ({cs.LockCountMeaning}), RecursionCount {cs.RecursionCount}, OwningThread 0x{cs.OwningThread:x}"
        : "";
}
