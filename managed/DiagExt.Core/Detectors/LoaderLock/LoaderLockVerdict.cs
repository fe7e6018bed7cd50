using System.Text;
using DiagExt.Core.Reports;

namespace DiagExt.Core.Detectors.LoaderLock;

/// <summary>
/// The words of a loader-lock finding: a one-line verdict in the seed's terms ("Thread 114 (0x6710) owns the
/// loader lock, is exiting and spins in SwitchToThread inside mkl_core.dll (2:14:28.671 user CPU). Thread 107
/// (0x8094) waits for it in LoadLibraryExW."), a title and advice. Each clause appears only when the dump shows it.
/// </summary>
internal static class LoaderLockVerdict
{
    private const int VictimsNamed = 3;

    public static string Summary(LoaderLockCase c)
    {
        var sb = new StringBuilder();
        if (c.Owner is not { } owner)
        {
            sb.Append($"The loader lock is held by thread 0x{c.Lock.OwningThread:x}, which is not in this dump: it ended (or was terminated) without releasing it, so every later LoadLibrary, GetProcAddress, thread start and thread exit blocks.");
            AppendVictims(sb, c);
            return sb.ToString();
        }
        sb.Append($"{LoaderLockCase.Name(owner.Thread)} owns the loader lock");
        sb.Append(owner.Activity is { } a ? $", {LoaderActivityText.Verb(a)} and " : " and ");
        sb.Append(StateClause(owner));
        if (Cpu(c) is { } cpu)
            sb.Append($" ({cpu})");
        sb.Append('.');
        AppendVictims(sb, c);
        if (c.Cycle.Sentence is { } cycle)
            sb.Append(' ').Append(cycle);
        return sb.ToString();
    }

    public static string Title(LoaderLockCase c)
    {
        int waiting = Math.Max(c.Victims.Victims.Count, c.Lock.Waiters);
        string waiters = waiting == 0 ? "no thread waits for it" : waiting == 1 ? "1 thread waits for it" : $"{waiting} threads wait for it";
        if (c.Owner is not { } owner)
            return $"Loader lock orphaned: owner 0x{c.Lock.OwningThread:x} is gone; {waiters}";
        string doing = owner.State switch
        {
            OwnerState.Spinning => $"spinning in {owner.StateFrame?.Symbol.Function ?? "a yield loop"}",
            OwnerState.Waiting => $"waiting in {owner.StateFrame?.Symbol.Function ?? "a wait"}",
            OwnerState.Running => "running",
            _ => "stack not captured",
        };
        string activity = owner.Activity is { } a ? $"{LoaderActivityText.Key(a)}, " : "";
        string prefix = c.Cycle.Certainty switch
        {
            DeadlockCertainty.Certain => "Loader lock deadlock",
            DeadlockCertainty.Likely => "Loader lock likely deadlocked",
            _ => "Loader lock held",
        };
        return $"{prefix}: thread 0x{owner.Thread.ThreadId:x} ({activity}{doing}); {waiters}";
    }

    public static string Advice(LoaderLockCase c)
    {
        string module = c.Owner?.CodeFrame?.Symbol.ModuleFileName ?? "the code on the owner's stack";
        return c.Owner?.Activity switch
        {
            LoaderActivity.ExitingThread =>
                $"{module} waits for another thread in its thread-detach code (DLL_THREAD_DETACH or a TLS destructor), which runs under the loader lock. " +
                "Code under the loader lock must not wait for or spin on other threads: make that cleanup lock-free, never call LoadLibrary/GetProcAddress/FreeLibrary while holding a lock that cleanup takes, or keep the threads that use the library alive (a pool) so they do not exit.",
            LoaderActivity.Loading or LoaderActivity.Unloading or LoaderActivity.ExitingProcess =>
                $"DllMain of {module} waits for another thread while the loader lock is held. Move that work out of DllMain (initialise lazily on first use, clean up explicitly before FreeLibrary/exit).",
            null when c.Owner is null =>
                "A thread died holding the loader lock (TerminateThread, or an exception swallowed inside DllMain). Find what ended it; the process cannot recover: restart it.",
            _ => $"Code that runs under the loader lock (DllMain, TLS callbacks) must not wait for other threads or spin. Find what {module} waits for.",
        };
    }

    private static string StateClause(OwnerAnalysis owner)
    {
        string where = owner.CodeFrame?.Symbol.ModuleFileName is { } m ? $" inside {m}" : "";
        string function = owner.StateFrame?.Symbol.Function ?? "";
        return owner.State switch
        {
            OwnerState.Spinning => $"spins in {function}{where}",
            OwnerState.Waiting when owner.WaitsFor is { } cs => $"waits in {function}{where} for critical section 0x{cs.Address:x}, held by thread 0x{cs.OwningThread:x}",
            OwnerState.Waiting => $"waits in {function}{where}",
            OwnerState.Running when where.Length > 0 => $"runs code{where}",
            OwnerState.Running => $"runs {owner.Frames[0].Symbol}",
            _ => "its stack is not in this dump",
        };
    }

    /// <summary>"2:14:28.671 user CPU"; "CPU time not in this dump" where that matters (a spinning or running owner).</summary>
    private static string? Cpu(LoaderLockCase c)
    {
        if (c.OwnerCpu is { } cpu)
            return $"{DurationText.Format(cpu.User)} user CPU";
        return c.Owner?.State is OwnerState.Spinning or OwnerState.Running ? "CPU time not in this dump" : null;
    }

    private static void AppendVictims(StringBuilder sb, LoaderLockCase c)
    {
        IReadOnlyList<Victim> victims = c.Victims.Victims;
        foreach (Victim v in victims.Take(VictimsNamed))
            sb.Append($" {LoaderLockCase.Name(v.Thread)} waits for it in {v.ApiName}.");
        if (victims.Count > VictimsNamed)
            sb.Append($" {victims.Count - VictimsNamed} more threads wait for it.");
        if (victims.Count == 0 && c.Lock.Waiters > 0)
            sb.Append(c.Lock.Waiters == 1
                ? " Its LockCount says 1 thread waits for it; no stack in this dump shows which."
                : $" Its LockCount says {c.Lock.Waiters} threads wait for it; no stack in this dump shows which.");
        else if (victims.Count == 0 && c.Owner is not null)
            sb.Append(" No other thread waits for it in this dump.");
    }
}
