namespace DiagExt.Core;

/// <summary>
/// How long a live target was kept from running so diagext could read it, and by what: the cost a user pays for a
/// live analysis, stated in every live report (issue 33). Null for a dump, or a process a debugger had stopped.
/// </summary>
/// <param name="Stopped">From the first thread stopped to the analysis' end (ptrace), or createdump's run (snapshot).</param>
public sealed record ProcessPause(TimeSpan Stopped, PauseCause By)
{
    /// <summary>For a ptrace pause: about how long a snapshot (createdump) would have stopped the process instead.</summary>
    public TimeSpan? SnapshotEstimate { get; init; }

    /// <summary>The live read stopped the process longer than a snapshot likely would have.</summary>
    public bool SnapshotWouldBeShorter => By == PauseCause.Ptrace && SnapshotEstimate is { } estimate && Stopped > estimate;
}

/// <summary>What held the process: the names the JSON gives them ("ptrace", "createdump", "clone").</summary>
public enum PauseCause
{
    /// <summary>Linux: every thread seized (PTRACE_SEIZE) for the whole analysis.</summary>
    Ptrace,

    /// <summary>--snapshot on Linux: createdump stops the process while it writes the dump analysed after.</summary>
    CreateDump,

    /// <summary>Windows: PssCaptureSnapshot clones the process; it is paused while the clone is made.</summary>
    Clone,
}
