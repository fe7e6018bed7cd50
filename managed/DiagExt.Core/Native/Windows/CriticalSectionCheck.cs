namespace DiagExt.Core.Native.Windows;

/// <summary>What <see cref="CriticalSectionProbe"/> made of an address.</summary>
internal enum CriticalSectionVerdict
{
    /// <summary>Every field fits a critical section of this process.</summary>
    Plausible,

    /// <summary>The dump does not hold the memory.</summary>
    NotCaptured,

    /// <summary>The memory is there but is not a critical section of this process: not evidence of anything.</summary>
    NotACriticalSection,
}

/// <summary>Which rule a field broke.</summary>
internal enum CriticalSectionFault
{
    /// <summary>The memory is not in the dump.</summary>
    NotCaptured,

    /// <summary>OwningThread names no thread of the dump: for a lock known to be one (the loader lock), its owner is gone.</summary>
    OwnerNotInDump,

    /// <summary>LockCount counts more waiters than the dump has threads: for a lock known to be one, an inconsistent dump.</summary>
    MoreWaitersThanThreads,

    /// <summary>RecursionCount or LockCount is no value a critical section of this process holds.</summary>
    Counts,

    /// <summary>A present DebugInfo is not captured, not a critical section's, or does not point back.</summary>
    DebugInfo,
}

/// <summary>One broken rule and how to say it ("OwningThread 0x1a0b2c is no thread of this dump").</summary>
internal sealed record CriticalSectionProblem(CriticalSectionFault Fault, string Text);

/// <summary>A critical section read from the target and judged as a whole.</summary>
/// <param name="Section">The fields as read; null when not captured.</param>
/// <param name="Problems">Why it is not a critical section, one fact each.</param>
internal sealed record CriticalSectionCheck(ulong Address, CriticalSectionVerdict Verdict, CriticalSection? Section, IReadOnlyList<CriticalSectionProblem> Problems)
{
    public bool IsPlausible => Verdict == CriticalSectionVerdict.Plausible;

    /// <summary>"OwningThread 0x... is no thread of this dump; LockCount ..." for a note.</summary>
    public string Why => string.Join("; ", Problems.Select(p => p.Text));
}
