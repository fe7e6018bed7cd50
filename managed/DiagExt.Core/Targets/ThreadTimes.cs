namespace DiagExt.Core.Targets;

/// <summary>Per-thread CPU times of a target, or the reason the target does not carry them.</summary>
public sealed class ThreadTimes
{
    private readonly IReadOnlyDictionary<uint, ThreadCpuTime> _byThread;

    private ThreadTimes(IReadOnlyDictionary<uint, ThreadCpuTime> byThread, string source, string? unavailableReason)
    {
        _byThread = byThread;
        Source = source;
        UnavailableReason = unavailableReason;
    }

    /// <summary>Where the times came from, e.g. "minidump ThreadInfoList stream".</summary>
    public string Source { get; }

    /// <summary>Why there are no times (e.g. "CPU time not recorded in this dump"), or null when there are.</summary>
    public string? UnavailableReason { get; }

    public bool Available => UnavailableReason is null;

    public static ThreadTimes Unavailable(string reason) => new(new Dictionary<uint, ThreadCpuTime>(), "", reason);

    public static ThreadTimes From(IReadOnlyDictionary<uint, ThreadCpuTime> byThread, string source) => new(byThread, source, null);

    public ThreadCpuTime? For(uint osThreadId) => _byThread.TryGetValue(osThreadId, out var t) ? t : null;
}
