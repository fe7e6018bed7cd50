namespace DiagExt.Core.Detectors.LoaderLock;

/// <summary>
/// The one-line notes for a held loader lock that is no hazard: contention (the owner is busy, threads wait behind
/// it), an inconsistent dump (a writer that copied memory while the process ran), or a lock that reads as no
/// critical section. Each names the owner's stack, which is what a reader checks next.
/// </summary>
internal static class LoaderLockNotes
{
    /// <summary>The advice every inconsistent dump gets.</summary>
    public const string WrittenWhileRunning = "the dump was written while the process ran: this may be transient; take a dump with a writer that suspends the process";

    public static string NotACriticalSection(LoaderLockState state, IReadOnlyList<string> problems) =>
        $"loader lock at 0x{state.LockAddress:x} does not read as a critical section of this process ({string.Join("; ", problems)}): not analysed; the dump may be damaged";

    public static string NoHazard(LoaderLockCase c)
    {
        OwnerAnalysis owner = c.Owner!;
        string described = c.State.Describe(c.Process.Layout);
        if (c.IsTorn)
        {
            string wine = c.Flavor.WineWriter
                ? " (Wine's dbghelp wrote this one: it pauses each thread only while it reads that thread's registers, then copies memory while the process runs)"
                : "";
            return $"{described}, but the dump is not one moment of the process: {string.Join("; ", c.Inconsistencies)}: {WrittenWhileRunning}{wine}. Owner's stack: {Stack(owner)}";
        }
        int waiting = Math.Max(c.Victims.Victims.Count, c.Lock.Waiters);
        if (waiting == 0)
            return $"{described}; the owner {Doing(owner)} and no thread waits for it: a normal moment, not a hang";
        string threads = waiting == 1 ? "1 thread waits" : $"{waiting} threads wait";
        return $"{described}; the owner {Doing(owner)} and {threads} for it: contention, not a hang (nothing shows the owner cannot finish: it neither spins nor waits in code of its own). Owner's stack: {Stack(owner)}";
    }

    /// <summary>Through the loader call the owner is in and its caller, as the finding's evidence shows it.</summary>
    private static string Stack(OwnerAnalysis owner) => LoaderLockEvidence.Stack(owner.Frames, owner.ActivityFrame);

    private static string Doing(OwnerAnalysis owner)
    {
        string top = owner.Frames.FirstOrDefault()?.Symbol.ToString() ?? "code";
        return owner.Activity is { } a ? $"{LoaderActivityText.Verb(a)} and runs {top}" : $"runs {top}";
    }
}
