using DiagExt.Core.Reports;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// When two hang findings, from two dumps or two looks, are the same hang: a chain is known by the thread it ends at
/// (its threads list the end first), whoever waits behind it; any other hang by its kind and its set of threads. One
/// rule for the dump series, the watch's looks and the report of the dump the watch writes.
/// </summary>
internal static class HangIdentity
{
    /// <summary>The thread a chain ends at.</summary>
    public static uint Holder(HangFinding chain) => chain.Threads[0].OsThreadId;

    /// <summary>Both end at the same thread.</summary>
    public static bool SameHolder(HangFinding a, HangFinding b) => a.Threads.Count > 0 && b.Threads.Count > 0 && Holder(a) == Holder(b);

    /// <summary>Both are chains one dump cannot settle, ending at the same thread.</summary>
    public static bool SameChain(HangFinding a, HangFinding b) => a.TimeSettles && b.TimeSettles && a.Kind == b.Kind && SameHolder(a, b);

    /// <summary>The same kind of hang among the same threads.</summary>
    public static bool SameThreads(HangFinding a, HangFinding b) =>
        a.Kind == b.Kind && a.Threads.Select(t => t.OsThreadId).ToHashSet().SetEquals(b.Threads.Select(t => t.OsThreadId));
}
