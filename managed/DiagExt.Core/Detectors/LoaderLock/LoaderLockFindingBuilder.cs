using DiagExt.Core.Native.Stacks;
using DiagExt.Core.Reports;

namespace DiagExt.Core.Detectors.LoaderLock;

/// <summary>Turns an established case into a finding: verdict, evidence, threads and the JSON fields.</summary>
internal static class LoaderLockFindingBuilder
{
    private const int MaxJsonFrames = 64;

    public static LoaderLockFinding Build(LoaderLockCase c)
    {
        var threads = new List<ThreadRef>();
        if (c.Owner is { } owner)
        {
            threads.Add(new ThreadRef
            {
                OsThreadId = owner.Thread.ThreadId,
                Role = $"owns the loader lock; {OwnerStateText(owner)}",
                Frame = owner.StateFrame?.Symbol.ToString() ?? owner.Frames.FirstOrDefault()?.Symbol.ToString(),
                CallerFrame = owner.CodeFrame?.Symbol.ToString(),
                UserCpu = c.OwnerCpu?.User,
                KernelCpu = c.OwnerCpu?.Kernel,
            });
        }
        foreach (Victim v in c.Victims.Victims)
        {
            threads.Add(new ThreadRef
            {
                OsThreadId = v.Thread.ThreadId,
                Role = $"waits for the loader lock in {v.ApiName}",
                Frame = v.ApiFrame?.Symbol.ToString(),
                CallerFrame = v.CallerFrame?.Symbol.ToString(),
            });
        }

        return new LoaderLockFinding
        {
            Kind = c.Kind,
            Title = LoaderLockVerdict.Title(c),
            Summary = LoaderLockVerdict.Summary(c),
            Threads = threads,
            Evidence = LoaderLockEvidence.Build(c),
            Advice = LoaderLockVerdict.Advice(c),
            LockAddress = $"0x{c.Lock.Address:x}",
            PebAddress = $"0x{c.State.Peb:x}",
            LockCount = c.Lock.LockCount,
            RecursionCount = c.Lock.RecursionCount,
            OwningThread = c.Lock.OwningThread,
            LockCountMeaning = c.Lock.LockCountMeaning,
            Owner = c.Owner is { } o ? OwnerReport(c, o) : null,
            Victims = c.Victims.Victims.Select(VictimReport).ToList(),
            Modules = Modules(c),
            Deadlock = DeadlockCertaintyText.Key(c.Cycle.Certainty),
            DeadlockProof = c.Cycle.Sentence,
            CouldSignal = c.Cycle.CouldSignal.Select(v => v.Thread.ThreadId).ToList(),
            ProcessArchitecture = c.Process.Description,
        };
    }

    private static string OwnerStateText(OwnerAnalysis owner)
    {
        string activity = owner.Activity is { } a ? LoaderActivityText.Key(a) + ", " : "";
        string state = owner.State.ToString().ToLowerInvariant();
        return owner.StateFrame?.Symbol.Function is { } f ? $"{activity}{state} in {f}" : $"{activity}{state}";
    }

    private static LoaderLockOwner OwnerReport(LoaderLockCase c, OwnerAnalysis o) => new(
        o.Thread.ThreadId,
        o.Thread.Index,
        o.State.ToString().ToLowerInvariant(),
        o.Activity is { } a ? LoaderActivityText.Key(a) : null,
        o.StateFrame?.Symbol.Function,
        o.CodeFrame?.Symbol.ModuleFileName,
        o.IsLoadOwner,
        c.OwnerCpu?.User,
        c.OwnerCpu?.Kernel,
        o.WaitsFor is { } cs ? $"0x{cs.Address:x}" : null,
        o.WaitsFor is { } held ? (uint)held.OwningThread : c.DeadlockPartner?.Thread.ThreadId,
        o.WaitsOn?.Select(h => new LoaderLockWaitedHandle($"0x{h.Value:x}", h.TypeName, h.ThreadId)).ToList(),
        JsonStack(o.Frames, o.ActivityFrame));

    private static LoaderLockVictim VictimReport(Victim v) => new(
        v.Thread.ThreadId,
        v.Thread.Index,
        v.ApiName,
        v.Activity is { } a ? LoaderActivityText.Key(a) : null,
        v.Style == VictimStyle.CriticalSection ? "critical-section" : "load-owner",
        v.CallerFrame?.Symbol.ModuleFileName,
        v.Proof,
        JsonStack(v.Frames, v.ApiFrame));

    private static List<string> JsonStack(IReadOnlyList<NativeFrame> frames, NativeFrame? upTo) =>
        FrameSearch.ThroughCaller(frames, upTo, MaxJsonFrames).Select(f => f.Symbol.ToString()).ToList();

    private static List<string> Modules(LoaderLockCase c)
    {
        var modules = new List<string>();
        if (c.Owner?.CodeFrame?.Symbol.ModuleFileName is { } own)
            modules.Add(own);
        foreach (Victim v in c.Victims.Victims)
            if (v.CallerFrame?.Symbol.ModuleFileName is { } m && !modules.Contains(m, StringComparer.OrdinalIgnoreCase))
                modules.Add(m);
        return modules;
    }
}
