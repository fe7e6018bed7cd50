namespace DiagExt.Core.Targets;

/// <summary>
/// CPU time a thread has used, as the target recorded it. <see cref="Recent"/> is set for live targets:
/// CPU used during a short window just before DiagExt suspended the process (like !runaway taken twice).
/// </summary>
public sealed record ThreadCpuTime(TimeSpan User, TimeSpan Kernel, TimeSpan? Recent = null, TimeSpan? RecentWindow = null)
{
    /// <summary>
    /// Live Linux targets: whether the thread sat in the same system call with the same arguments (/proc/PID/task/TID/syscall,
    /// e.g. one futex wait on one address) at both ends of the recent window; null when not read.
    /// </summary>
    public bool? SameSyscallThroughout { get; init; }

    public TimeSpan Total => User + Kernel;

    /// <summary>Whether the thread was watched over a recent window (live targets where /proc was readable).</summary>
    public bool Watched => Recent is not null && RecentWindow is not null;

    /// <summary>Whether the thread moved while watched: it used CPU, or its system call changed.</summary>
    public bool MovedWhileWatched => Recent > TimeSpan.Zero || SameSyscallThroughout == false;

    /// <summary>Share of one core used during the recent window, 0..1+; null when not measured.</summary>
    public double? RecentShare => Recent is { } r && RecentWindow is { } w && w > TimeSpan.Zero ? r / w : null;
}
