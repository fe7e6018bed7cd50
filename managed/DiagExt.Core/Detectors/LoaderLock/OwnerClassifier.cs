using DiagExt.Core.Native;
using DiagExt.Core.Native.Stacks;
using DiagExt.Core.Native.Windows;

namespace DiagExt.Core.Detectors.LoaderLock;

/// <summary>
/// Classifies the loader lock's owner from its scanned stack: spinning (NtYieldExecution/SwitchToThread), waiting
/// (a wait system call on top; the critical section it waits for when one is on its stack) or running; the loader
/// work it is in (exiting, loading...) and the innermost module of its own that runs there.
/// </summary>
internal static class OwnerClassifier
{
    /// <summary>Beyond the activity frame, how far up the stack a critical section argument is looked for.</summary>
    private const ulong CriticalSectionSearchBytes = 0x400;

    public static OwnerAnalysis Classify(WindowsProcess process, ProcessStacks stacks, CriticalSectionProbe probe, WindowsHandles? handles, WindowsThread owner, ulong loaderLock)
    {
        IReadOnlyList<NativeFrame> frames = stacks.For(owner);
        int activityIndex = FrameSearch.ActivityIndex(frames);
        int limit = activityIndex >= 0 ? activityIndex : frames.Count;

        OwnerState state = frames.Count == 0 ? OwnerState.Unknown : OwnerState.Running;
        int stateIndex = -1;
        if (frames.Count > 0 && (LoaderFunctions.IsYield(frames[0]) || frames.Take(limit).Any(LoaderFunctions.IsYield)))
        {
            state = OwnerState.Spinning;
            stateIndex = OutermostCall(frames, limit, LoaderFunctions.IsYield);
        }
        else if (frames.Count > 0 && LoaderFunctions.IsWaitCall(frames[0]))
        {
            state = OwnerState.Waiting;
            stateIndex = Math.Max(0, OutermostCall(frames, limit, LoaderFunctions.IsWaitApi));
        }
        // Whose code runs: the caller of the yield or wait API (stale return addresses can sit above it), else the innermost.
        NativeFrame? caller = stateIndex >= 0 ? FrameSearch.FirstUserCode(frames, stateIndex + 1, limit) : null;
        NativeFrame? code = caller ?? FrameSearch.FirstUserCode(frames, 0, limit);
        bool waiting = state == OwnerState.Waiting;

        return new OwnerAnalysis(
            owner,
            frames,
            state,
            stateIndex >= 0 ? frames[stateIndex] : null,
            activityIndex >= 0 ? LoaderFunctions.ActivityOf(frames[activityIndex]) : null,
            activityIndex >= 0 ? frames[activityIndex] : null,
            code,
            IsLoadOwner(process, owner),
            waiting ? CriticalSectionWaitedFor(probe, stacks, owner, frames, limit, loaderLock) : null,
            caller is not null,
            waiting && WaitedHandles.Read(process, owner, frames) is { } values
                ? values.Select(v => handles?.Find(v) ?? new WindowsHandle(v, null, null)).ToList()
                : null);
    }

    /// <summary>TEB.SameTebFlags.LoadOwner; the bit has that meaning only from Windows 10 on.</summary>
    public static bool IsLoadOwner(WindowsProcess process, WindowsThread thread) =>
        process.Dump.SystemInfo is { MajorVersion: >= 10 } && thread.TebCaptured
        && process.Dump.TryReadUInt16(thread.Teb + (ulong)process.Layout.TebSameTebFlags, out ushort flags)
        && (flags & WindowsLayout.LoadOwnerFlag) != 0;

    /// <summary>
    /// The API the program called to yield or wait: the innermost matching frame, then outwards through OS frames to
    /// the last match before the program's own code ("SwitchToThread" over "NtYieldExecution", "WaitForSingleObject"
    /// over "WaitForSingleObjectEx"). -1 when no frame matches.
    /// </summary>
    private static int OutermostCall(IReadOnlyList<NativeFrame> frames, int limit, Func<NativeFrame, bool> match)
    {
        int found = -1;
        for (int i = 0; i < limit && i < frames.Count; i++)
        {
            if (found >= 0 && LoaderFunctions.IsUserCode(frames[i]))
                break;
            if (match(frames[i]))
                found = i;
        }
        return found;
    }

    /// <summary>
    /// When the owner waits inside RtlEnterCriticalSection, the section's address is on its stack (an argument or a
    /// saved register): the innermost word there, other than the loader lock, that is a critical section of this
    /// process as a whole (<see cref="CriticalSectionProbe"/>), held by another thread.
    /// </summary>
    private static CriticalSection? CriticalSectionWaitedFor(CriticalSectionProbe probe, ProcessStacks stacks, WindowsThread owner, IReadOnlyList<NativeFrame> frames, int limit, ulong loaderLock)
    {
        int entry = -1;
        for (int i = 0; i < limit && i < frames.Count; i++)
            if (LoaderFunctions.IsCriticalSectionEntry(frames[i]))
                entry = i;
        if (entry < 0 || owner.Registers is not { } registers)
            return null;
        ulong below = FrameSearch.SlotAfter(frames, entry, (frames[entry].StackSlot ?? registers.StackPointer) + CriticalSectionSearchBytes);
        var seen = new HashSet<ulong>();
        foreach (ulong word in stacks.StackWords(owner, below))
        {
            if (word == 0 || word == loaderLock || word % 4 != 0 || !seen.Add(word))
                continue;
            if (probe.Check(word) is { IsPlausible: true, Section: { IsHeld: true } cs } && cs.OwningThread != owner.ThreadId)
                return cs;
        }
        return null;
    }
}
