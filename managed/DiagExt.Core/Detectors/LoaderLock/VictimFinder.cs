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
            IReadOnlyList<NativeFrame> frames = stacks.For(thread);
            bool flagged = WaitingOnLoaderLock(process, thread);
            int entry = FrameSearch.ActivityIndex(frames);
            bool waiting = frames.Count > 0 && LoaderFunctions.IsWaitCall(frames[0]);
            if (!flagged && (entry < 0 || !waiting))
                continue;

            var proof = new List<string>();
            if (flagged)
                proof.Add("TEB.WaitingOnLoaderLock = 1");
            int criticalSection = entry < 0 ? -1 : IndexBefore(frames, entry, LoaderFunctions.IsCriticalSectionEntry);
            bool lockOnStack = false;
            if (criticalSection >= 0)
            {
                proof.Add($"{frames[criticalSection].Symbol.Function} on its stack");
                lockOnStack = stacks.StackHolds(thread, loaderLock, FrameSearch.SlotAfter(frames, entry, frames[entry].StackSlot ?? 0));
                if (lockOnStack)
                    proof.Add($"the loader lock's address {(Address)loaderLock} is on its stack");
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
                if (entry >= 0 && LoaderFunctions.ActivityOf(frames[entry]) is not (LoaderActivity.ExitingThread or LoaderActivity.StartingThread))
                    unexplained.Add((thread, frames[api].Symbol.Function ?? "loader code"));
                continue;
            }
            victims.Add(new Victim(
                thread,
                frames,
                entry >= 0 ? LoaderFunctions.ActivityOf(frames[entry]) : null,
                api >= 0 ? frames[api] : null,
                api >= 0 ? FrameSearch.FirstUserCode(frames, api + 1, frames.Count) : null,
                s,
                proof));
        }
        return new Result(victims, unexplained);
    }

    /// <summary>TEB.WaitingOnLoaderLock, which RtlpWaitOnCriticalSection sets when the section is the loader lock (Vista+ layout).</summary>
    private static bool WaitingOnLoaderLock(WindowsProcess process, WindowsThread thread) =>
        thread.TebCaptured && process.Dump.SystemInfo is { MajorVersion: >= 6 }
        && process.Dump.TryReadUInt32(thread.Teb + (ulong)process.Layout.TebWaitingOnLoaderLock, out uint value) && value == 1;

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
