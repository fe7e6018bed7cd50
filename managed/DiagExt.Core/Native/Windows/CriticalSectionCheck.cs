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

/// <summary>A critical section read from the target and judged as a whole.</summary>
/// <param name="Section">The fields as read; null when not captured.</param>
/// <param name="Problems">Why it is not a critical section, one fact each ("OwningThread 0x1a0b2c is no thread of this dump").</param>
internal sealed record CriticalSectionCheck(ulong Address, CriticalSectionVerdict Verdict, CriticalSection? Section, IReadOnlyList<string> Problems)
{
    public bool IsPlausible => Verdict == CriticalSectionVerdict.Plausible;

    /// <summary>"OwningThread 0x... is no thread of this dump; LockCount ..." for a note.</summary>
    public string Why => string.Join("; ", Problems);
}
