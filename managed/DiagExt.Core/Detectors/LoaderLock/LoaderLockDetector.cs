using DiagExt.Core.Analysis;
using DiagExt.Core.Heap;
using DiagExt.Core.Native.Minidump;
using DiagExt.Core.Native.Stacks;
using DiagExt.Core.Native.Symbols;
using DiagExt.Core.Native.Windows;
using DiagExt.Core.Reports;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Detectors.LoaderLock;

/// <summary>
/// Who owns the Windows loader lock, what it is doing, and who hangs behind it. Native analysis of the minidump
/// (TEB -> PEB -> LoaderLock, stacks named from the images' exports): no DAC, no PDB, any host.
/// </summary>
public sealed class LoaderLockDetector : IDetector
{
    public const string CommandName = "loaderlock";

    public string Name => CommandName;

    public string Description => "Windows loader lock held by a spinning, waiting or exiting thread, and the threads hanging behind it";

    public string Explanation =>
        "Reads the loader lock from a Windows minidump (x64, x86, and 32-bit processes dumped by a 64-bit writer): TEB -> PEB -> " +
        "PEB.LoaderLock, a critical section whose OwningThread is matched to the thread whose TEB ClientId it is. Stacks are unwound " +
        "with the images' .pdata on x64 and found by scanning for return addresses where that stops and on x86; frames are named from " +
        "the export tables in the dump (module!export+0x.., or module+0x.. outside any export), with no PDB. " +
        "The owner is classified (spinning in SwitchToThread, waiting, exiting in LdrShutdownThread, loading in LdrLoadDll) with the " +
        "module whose code runs under the lock and its CPU time when the dump records it; the threads blocked in LoadLibrary, " +
        "GetProcAddress, GetModuleHandle, FreeLibrary, thread start or exit are found (Windows 7 style on the critical section, Windows 10 " +
        "style behind the load owner). A finding needs a reason the owner cannot finish (it spins, waits in code of its own, or waits " +
        "while exiting); a busy owner with threads queued behind it is contention, a note. A deadlock is certain when the owner waits for " +
        "a critical section held by a thread behind the lock or on the handle of such a thread, likely when it waits for an event, " +
        "semaphore, mutex or unnamed object those threads could set. Critical sections count only when plausible as a whole (owner a " +
        "thread of the dump, counts sane for the encoding, DebugInfo pointing back); a dump that cannot be one moment (the owner shown " +
        "entering its own lock, counts the threads contradict, a module list without ntdll) is said to be written while the process ran. " +
        "A free lock, or a lock the dump did not capture, is reported as such, without a finding.";

    public DetectorNeeds Needs => DetectorNeeds.WindowsMinidump;

    public IHeapInterest? HeapInterest => null;

    public FindingContract Contract { get; } = new(CommandName, typeof(LoaderLockFinding), LoaderLockJson.Default);

    public IReadOnlyList<Finding> Analyze(AnalysisContext context) =>
        Analyze(context.Target.Minidump!, context.Target.ThreadTimes, context.Target.Limits, context.Note, context.Cancellation);

    /// <summary>The analysis itself, on DiagExt's own minidump reader alone (no ClrMD): what the fuzzer feeds hostile dumps.</summary>
    internal static IReadOnlyList<Finding> Analyze(MinidumpFile dump, ThreadTimes times, Limits limits, Action<string> note, CancellationToken cancellation)
    {
        if (WindowsProcess.Open(dump) is not { } process)
        {
            note($"loader lock not analysed: the dump's processor ({dump.SystemInfo?.ArchitectureName ?? "unknown"}) is neither x86 nor x64");
            return [];
        }
        LoaderLockState state = LoaderLockReader.Read(process);
        if (state.Status != LoaderLockStatus.Held)
        {
            note(state.Describe(process.Layout));
            return [];
        }

        var symbols = new NativeSymbolizer(dump, dump.Modules, limits);
        var stacks = new ProcessStacks(process, symbols, limits);
        WindowsFlavor flavor = WindowsFlavor.Detect(dump, symbols);
        var probe = CriticalSectionProbe.For(process, flavor.Encoding);
        CriticalSection lockSection = state.Lock!;
        CriticalSectionCheck lockCheck = probe.Check(state.LockAddress);
        // The PEB names it, so it is the loader lock whatever it holds; an owner or waiters the dump lacks are read on below.
        if (lockCheck.Problems.Where(p => p.Fault is not (CriticalSectionFault.OwnerNotInDump or CriticalSectionFault.MoreWaitersThanThreads)).ToList() is { Count: > 0 } broken)
        {
            note(LoaderLockNotes.NotACriticalSection(state, broken.Select(p => p.Text).ToList()));
            return [];
        }
        WindowsThread? ownerThread = process.Threads.FirstOrDefault(t => t.TebCaptured && ClientId(process, t) == lockSection.OwningThread)
            ?? process.Threads.FirstOrDefault(t => t.ThreadId == lockSection.OwningThread);
        cancellation.ThrowIfCancellationRequested();
        OwnerAnalysis? owner = ownerThread is null ? null
            : OwnerClassifier.Classify(process, stacks, probe, WindowsHandles.Read(process), ownerThread, state.LockAddress);
        VictimFinder.Result victims = VictimFinder.Find(process, stacks, owner, lockSection.OwningThread, state.LockAddress);

        var found = new LoaderLockCase(
            process, flavor, state, owner, victims,
            ownerThread is null ? null : times.For(ownerThread.ThreadId),
            times.UnavailableReason,
            symbols.AnyImageCaptured(),
            owner is null ? CycleProof.None : CycleFinder.Find(owner, victims.Victims),
            owner is null ? [] : InconsistencyFinder.Find(process, stacks, lockSection, owner, victims.Victims));
        if (!found.IsHazard)
        {
            note(LoaderLockNotes.NoHazard(found));
            return [];
        }
        return [LoaderLockFindingBuilder.Build(found)];
    }

    /// <summary>TEB.ClientId.UniqueThread: the id OwningThread records.</summary>
    private static ulong ClientId(WindowsProcess process, WindowsThread thread) =>
        process.Dump.TryReadPointer(thread.Teb + (ulong)process.Layout.TebClientIdThread, process.PointerSize == 8, out ulong id) ? id : 0;
}
