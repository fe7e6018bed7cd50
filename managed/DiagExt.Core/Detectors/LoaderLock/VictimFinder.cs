using DiagExt.Core.Native;
using DiagExt.Core.Native.Stacks;
using DiagExt.Core.Native.Windows;

namespace DiagExt.Core.Detectors.LoaderLock;

/// <summary>
/// Finds the threads blocked behind the loader lock: blocked in a wait, inside a loader entry point (LoadLibrary,
/// GetProcAddress, GetModuleHandle, FreeLibrary, thread start or exit), and provably waiting for the lock:
/// RtlEnterCriticalSection with the lock's address on the stack or TEB.WaitingOnLoaderLock set (Windows 7 style,
/// Wine), or, with no critical section frame, while the owner is the Windows 10 load owner (LdrpDrainWorkQueue).
/// Threads in loader code whose wait the dump does not explain are returned apart, not counted as victims.
/// </summary>
internal static class VictimFinder
{
    public sealed record Result(IReadOnlyList<Victim> Victims, IReadOnlyList<(WindowsThread Thread, string Api)> Unexplained);

    public static Result Find(WindowsProcess process, ProcessStacks stacks, OwnerAnalysis? owner, ulong ownerThreadId, ulong loaderLock)
    {
        var victims = new List<Victim>();
        var unexplained = new List<(WindowsThread, string)>();
        foreach (WindowsThread thread in process.Threads)
        {
            if (thread.ThreadId == ownerThreadId)
                continue;
            var (victim, api) = Examine(process, stacks, thread, owner, ownerThreadId, loaderLock);
            if (victim is not null)
                victims.Add(victim);
            else if (api is not null)
                unexplained.Add((thread, api));
        }
        return new Result(victims, unexplained);
    }

    /// <summary>
    /// Whether the owner's own stack shows it waiting to enter the loader lock, as a victim's would: a thread never
    /// waits for a critical section it owns, so such a dump shows the owner and the lock at different moments. The
    /// owner entered the lock once, so its address is on its stack anyway, and under the lock the loader enters other
    /// sections of its own (the PEB lock): the TEB flag must be set, or the registers its critical-section call keeps
    /// must hold the loader lock, from the loader's own call (no code of the program's between it and the loader entry
    /// point). Frames found by scanning keep no registers: then the dump does not show it.
    /// </summary>
    public static Victim? OwnerShownWaiting(WindowsProcess process, ProcessStacks stacks, WindowsThread owner, ulong loaderLock)
    {
        if (Examine(process, stacks, owner, null, owner.ThreadId, loaderLock).Victim is not { Style: VictimStyle.CriticalSection } shown)
            return null;
        if (WaitingOnLoaderLock(process, owner))
            return shown;
        IReadOnlyList<NativeFrame> frames = shown.Frames;
        int entry = FrameSearch.ActivityIndex(frames);
        int criticalSection = IndexBefore(frames, entry, LoaderFunctions.IsCriticalSectionEntry);
        if (criticalSection < 0 || HeldInRegisters(frames, criticalSection, loaderLock, (ulong)process.Layout.CsLockSemaphore) != true)
            return null;
        return FrameSearch.FirstUserCode(frames, criticalSection + 1, entry) is null ? shown : null;
    }

    /// <summary>The thread as a victim; else, when it sits in a loader call whose wait the dump does not explain, that call's name.</summary>
    private static (Victim? Victim, string? UnexplainedApi) Examine(WindowsProcess process, ProcessStacks stacks, WindowsThread thread, OwnerAnalysis? owner, ulong ownerThreadId, ulong loaderLock)
    {
        IReadOnlyList<NativeFrame> frames = stacks.For(thread);
        bool flagged = WaitingOnLoaderLock(process, thread);
        int entry = FrameSearch.ActivityIndex(frames);
        bool waiting = frames.Count > 0 && LoaderFunctions.IsWaitCall(frames[0]);
        if (!flagged && (entry < 0 || !waiting))
            return (null, null);

        var proof = new List<string>();
        if (flagged)
            proof.Add("TEB.WaitingOnLoaderLock = 1");
        int criticalSection = entry < 0 ? -1 : IndexBefore(frames, entry, LoaderFunctions.IsCriticalSectionEntry);
        bool lockOnStack = false;
        if (criticalSection >= 0)
        {
            proof.Add($"{frames[criticalSection].Symbol.Function} on its stack");
            if (HeldInRegisters(frames, criticalSection, loaderLock, (ulong)process.Layout.CsLockSemaphore) is { } inRegister)
            {
                // Unwound frames give the registers its critical-section calls keep: the section they enter, not a stale word.
                lockOnStack = inRegister;
                if (lockOnStack)
                    proof.Add($"its {frames[criticalSection].Symbol.Function} call holds the loader lock's address 0x{loaderLock:x} in a register");
            }
            else
            {
                lockOnStack = stacks.StackHolds(thread, loaderLock, FrameSearch.SlotAfter(frames, entry, frames[entry].StackSlot ?? 0));
                if (lockOnStack)
                    proof.Add($"the loader lock's address 0x{loaderLock:x} is on its stack");
            }
        }

        VictimStyle? style = null;
        if (flagged || criticalSection >= 0 && lockOnStack)
            style = VictimStyle.CriticalSection;
        else if (criticalSection < 0 && owner is { IsLoadOwner: true })
        {
            style = VictimStyle.LoadOwner;
            proof.Add($"waits in loader code with no critical section frame while thread 0x{ownerThreadId:x} is the load owner (TEB.SameTebFlags.LoadOwner)");
        }

        int api = entry < 0 ? -1 : FrameSearch.OutermostApiIndex(frames, entry);
        if (style is not { } s)
        {
            // Thread start and exit frames sit at the bottom of many stacks: only calls into the loader are worth a line.
            bool worthALine = entry >= 0 && LoaderFunctions.ActivityOf(frames[entry]) is not (LoaderActivity.ExitingThread or LoaderActivity.StartingThread);
            return (null, worthALine ? frames[api].Symbol.Function ?? "loader code" : null);
        }
        return (new Victim(
            thread,
            frames,
            entry >= 0 ? LoaderFunctions.ActivityOf(frames[entry]) : null,
            api >= 0 ? frames[api] : null,
            api >= 0 ? FrameSearch.FirstUserCode(frames, api + 1, frames.Count) : null,
            s,
            proof), null);
    }

    /// <summary>TEB.WaitingOnLoaderLock, which RtlpWaitOnCriticalSection sets when the section is the loader lock (Vista+ layout).</summary>
    private static bool WaitingOnLoaderLock(WindowsProcess process, WindowsThread thread) =>
        thread.TebCaptured && process.Dump.SystemInfo is { MajorVersion: >= 6 }
        && process.Dump.TryReadUInt32(thread.Teb + (ulong)process.Layout.TebWaitingOnLoaderLock, out uint value) && value == 1;

    /// <summary>
    /// Whether a non-volatile register of the frames from the top through the critical-section entry holds the lock's
    /// address (or its LockSemaphore's, which Wine's wait is on); null when those frames were not unwound with registers.
    /// </summary>
    private static bool? HeldInRegisters(IReadOnlyList<NativeFrame> frames, int criticalSection, ulong loaderLock, ulong lockSemaphoreOffset)
    {
        bool held = false;
        for (int i = 0; i <= criticalSection; i++)
        {
            if (frames[i].HoldsInRegister(loaderLock) is not { } lockHeld || frames[i].HoldsInRegister(loaderLock + lockSemaphoreOffset) is not { } semaphoreHeld)
                return null;
            held |= lockHeld || semaphoreHeld;
        }
        return held;
    }

    /// <summary>The outermost frame before <paramref name="limit"/> that matches ("RtlEnterCriticalSection" over its internal wait).</summary>
    private static int IndexBefore(IReadOnlyList<NativeFrame> frames, int limit, Func<NativeFrame, bool> match)
    {
        int found = -1;
        for (int i = 0; i < limit; i++)
            if (match(frames[i]))
                found = i;
        return found;
    }
}
