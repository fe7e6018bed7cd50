namespace DiagExt.Core.Native.Windows;

/// <summary>
/// Reads an RTL_CRITICAL_SECTION from the target and decides whether it is one, as a whole: a word on a stack or a
/// heap block can fit any single field (a heap block's list links even make a DebugInfo that "points back"), so each
/// field must fit this process:
/// <list type="bullet">
/// <item>OwningThread is 0 or a thread of the dump, and RecursionCount is a small count that is 0 when there is no owner;</item>
/// <item>LockCount is valid in the process's encoding (never below -1 when counting, always negative in the bit
/// encoding, never "unlocked" with an owner) and counts no more waiters than the dump has threads;</item>
/// <item>a DebugInfo that is present (neither 0 nor -1) is captured, is an RTL_CRITICAL_SECTION_DEBUG (Type 0) and
/// points back at the section.</item>
/// </list>
/// One instance per process; what a detector makes of an implausible lock is its own business (for the loader lock,
/// whose address the PEB gives, an owner missing from the dump means the owner is gone).
/// </summary>
internal sealed class CriticalSectionProbe(IMemoryReader memory, WindowsLayout layout, CriticalSectionEncoding encoding, IReadOnlyCollection<uint> threadIds)
{
    /// <summary>Deeper than any real recursion (a DllMain loading a DLL that loads a DLL is a handful).</summary>
    public const int MaxRecursion = 10_000;

    /// <summary>RTL_CRITICAL_SECTION_DEBUG.Type of a critical section (RTL_CRITSECT_TYPE; 1 is a resource).</summary>
    private const ushort CriticalSectionDebugType = 0;

    public CriticalSectionEncoding Encoding => encoding;

    /// <summary>The probe of a Windows process: its memory and layout, the encoding its flavour uses, its threads as owners.</summary>
    public static CriticalSectionProbe For(WindowsProcess process, CriticalSectionEncoding encoding) =>
        new(process.Dump, process.Layout, encoding, process.Threads.Select(t => t.ThreadId).ToHashSet());

    public CriticalSectionCheck Check(ulong address)
    {
        if (CriticalSection.Read(memory, address, layout) is not { } cs)
            return new CriticalSectionCheck(address, CriticalSectionVerdict.NotCaptured, null, [new(CriticalSectionFault.NotCaptured, "its memory is not in this dump")]);
        var problems = new List<CriticalSectionProblem>();
        if (cs.OwningThread != 0 && (cs.OwningThread > uint.MaxValue || !threadIds.Contains((uint)cs.OwningThread)))
            problems.Add(new(CriticalSectionFault.OwnerNotInDump, $"OwningThread 0x{cs.OwningThread:x} is no thread of this dump"));
        if (cs.RecursionCount is < 0 or > MaxRecursion)
            problems.Add(new(CriticalSectionFault.Counts, $"RecursionCount {cs.RecursionCount} is not a recursion count"));
        else if (cs.OwningThread == 0 && cs.RecursionCount > 0)
            problems.Add(new(CriticalSectionFault.Counts, $"RecursionCount {cs.RecursionCount} with no OwningThread"));
        if (LockCountProblem(cs) is { } lockCount)
            problems.Add(new(CriticalSectionFault.Counts, lockCount));
        else if (cs.Waiters > threadIds.Count)
            problems.Add(new(CriticalSectionFault.MoreWaitersThanThreads, $"LockCount {cs.LockCount} counts {cs.Waiters} waiters; the dump has {threadIds.Count} threads"));
        if (DebugInfoProblem(cs) is { } debugInfo)
            problems.Add(new(CriticalSectionFault.DebugInfo, debugInfo));
        return new CriticalSectionCheck(address, problems.Count == 0 ? CriticalSectionVerdict.Plausible : CriticalSectionVerdict.NotACriticalSection, cs, problems);
    }

    private string? LockCountProblem(CriticalSection cs)
    {
        bool counting = cs.LockCount >= -1;
        if (encoding == CriticalSectionEncoding.Counting && !counting)
            return $"LockCount {cs.LockCount} is below -1, which the counting encoding (Wine, Windows XP) never holds";
        if (encoding == CriticalSectionEncoding.Bits && cs.LockCount >= 0)
            return $"LockCount {cs.LockCount} is not negative, which the Vista+ bit encoding never holds";
        if (!counting || cs.LockCount == -1)
        {
            // Bit 0 set means unlocked: Windows clears OwningThread before it sets the bit, and sets it after it clears the bit.
            if ((cs.LockCount & 1) != 0 && cs.OwningThread != 0)
                return $"LockCount {cs.LockCount} says unlocked while OwningThread is 0x{cs.OwningThread:x}";
        }
        return null;
    }

    private string? DebugInfoProblem(CriticalSection cs)
    {
        ulong none = layout.PointerSize == 8 ? ulong.MaxValue : uint.MaxValue;
        if (cs.DebugInfo == 0 || cs.DebugInfo == none)
            return null;
        if (!memory.TryReadUInt16(cs.DebugInfo, out ushort type)
            || !memory.TryReadPointer(cs.DebugInfo + (ulong)layout.CsDebugInfoCriticalSection, layout.PointerSize, out ulong back))
            return $"its DebugInfo 0x{cs.DebugInfo:x} is not in this dump";
        if (back != cs.Address)
            return $"its DebugInfo 0x{cs.DebugInfo:x} points back at 0x{back:x}, not at it";
        return type == CriticalSectionDebugType ? null : $"its DebugInfo 0x{cs.DebugInfo:x} has Type {type}, not a critical section's";
    }
}
