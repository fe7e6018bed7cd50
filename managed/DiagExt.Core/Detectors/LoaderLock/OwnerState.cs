namespace DiagExt.Core.Detectors.LoaderLock;

/// <summary>What the loader lock's owner is doing at the moment of the dump.</summary>
internal enum OwnerState
{
    /// <summary>Yielding in a loop (SwitchToThread / NtYieldExecution): burning CPU without progress.</summary>
    Spinning,

    /// <summary>Blocked in a wait system call.</summary>
    Waiting,

    /// <summary>Running code (neither waiting nor yielding) at the moment of the dump.</summary>
    Running,

    /// <summary>Its registers or stack are not in the dump.</summary>
    Unknown,
}
