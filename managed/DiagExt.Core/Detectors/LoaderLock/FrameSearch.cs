using DiagExt.Core.Native.Stacks;

namespace DiagExt.Core.Detectors.LoaderLock;

/// <summary>Searches over a scanned stack (innermost first) shared by the owner and victim classifiers.</summary>
internal static class FrameSearch
{
    /// <summary>
    /// The innermost frame naming a loader activity. Thread start (LdrInitializeThunk) counts only when nothing else
    /// does: its return address lingers on stacks long after the thread started.
    /// </summary>
    public static int ActivityIndex(IReadOnlyList<NativeFrame> frames)
    {
        int start = -1;
        for (int i = 0; i < frames.Count; i++)
        {
            LoaderActivity? activity = LoaderFunctions.ActivityOf(frames[i]);
            if (activity is LoaderActivity.StartingThread)
                start = start < 0 ? i : start;
            else if (activity is not null)
                return i;
        }
        return start;
    }

    /// <summary>The innermost frame in the program's own (or a third party's) code, before <paramref name="limit"/>.</summary>
    public static NativeFrame? FirstUserCode(IReadOnlyList<NativeFrame> frames, int start, int limit)
    {
        for (int i = Math.Max(0, start); i < Math.Min(limit, frames.Count); i++)
            if (LoaderFunctions.IsUserCode(frames[i]))
                return frames[i];
        return null;
    }

    /// <summary>
    /// The outermost frame of the loader call that starts at <paramref name="entry"/>: walking outwards through
    /// OS frames, the last one that names an activity ("LoadLibraryW" above "LdrLoadDll"), i.e. the API the program called.
    /// </summary>
    public static int OutermostApiIndex(IReadOnlyList<NativeFrame> frames, int entry)
    {
        int api = entry;
        for (int i = entry + 1; i < frames.Count && !LoaderFunctions.IsUserCode(frames[i]); i++)
            if (LoaderFunctions.ActivityOf(frames[i]) is not null and not LoaderActivity.StartingThread)
                api = i;
        return api;
    }

    /// <summary>The stack slot just past the frame at <paramref name="index"/>, bounding "its part of the stack".</summary>
    public static ulong SlotAfter(IReadOnlyList<NativeFrame> frames, int index, ulong fallback)
    {
        for (int i = index + 1; i < frames.Count; i++)
            if (frames[i].StackSlot is ulong slot)
                return slot;
        return fallback;
    }

    /// <summary>
    /// The frames from the top through <paramref name="upTo"/> and the one above it (its caller), at most
    /// <paramref name="max"/>; the first <paramref name="max"/> frames when <paramref name="upTo"/> is not given.
    /// </summary>
    public static IReadOnlyList<NativeFrame> ThroughCaller(IReadOnlyList<NativeFrame> frames, NativeFrame? upTo, int max)
    {
        int end = -1;
        for (int i = 0; upTo is not null && i < frames.Count; i++)
            if (ReferenceEquals(frames[i], upTo))
                end = i;
        int count = end >= 0 ? Math.Min(end + 2, max) : max;
        return frames.Take(count).ToList();
    }
}
