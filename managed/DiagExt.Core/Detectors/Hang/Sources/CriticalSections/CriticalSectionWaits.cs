using DiagExt.Core.Native.Stacks;
using DiagExt.Core.Native.Symbols;
using DiagExt.Core.Native.Windows;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// Threads of a Windows process blocked entering a critical section: stopped in a kernel wait with
/// RtlEnterCriticalSection (or EnterCriticalSection, RtlpWaitForCriticalSection) below it, on a section that
/// <see cref="CriticalSectionProbe"/> judges real, held by another thread of the process and counting a waiter. Each
/// is a lock wait of the same graph as the managed ones, so a Monitor and a critical section in one cycle are one
/// deadlock; the loader lock (the PEB's) is named. As with pthread mutexes, such a thread has no managed wait frame
/// (its innermost managed frame is a P/Invoke), so the managed waits skip it.
/// </summary>
internal sealed class CriticalSectionWaits : IWaitSource
{
    public const string TypeName = "CRITICAL_SECTION";

    /// <summary>Stack words tried past the critical-section call's own frame: its caller passed the section in them or in a register it keeps.</summary>
    private const int MaxCandidates = 1_024;

    public void AddTo(WaitGraph graph, HangScene scene)
    {
        Target target = scene.Target;
        if (target.Minidump is not { } dump || WindowsProcess.Open(dump) is not { } process)
            return;
        Reading? reading = null;
        foreach (WindowsThread native in process.Threads)
        {
            scene.Cancellation.ThrowIfCancellationRequested();
            if (scene.Threads.ByOsId(native.ThreadId) is not { } thread || graph.WaitOf(thread.OsThreadId) is not null)
                continue;
            reading ??= new Reading(process, target.Limits);
            IReadOnlyList<NativeFrame> frames = reading.Stacks.For(native);
            if (frames.Count == 0 || !WindowsWaitCalls.IsWaitCall(frames[0]))
                continue;
            int entry = Outermost(frames);
            if (entry < 0 || WaitedSection(reading, native, frames, entry) is not { } section)
                continue;
            WaitFrames.Site site = WaitFrames.Native(thread);
            NativeFrame shown = frames[entry];
            graph.AddWait(new ThreadWait(thread, site, default)
            {
                NativeLock = section.Address,
                NativeFrame = new ManagedFrame(shown.Address, shown.StackSlot ?? 0, null, null, shown.Symbol.ToString()),
            });
            if (!graph.Locks.ContainsKey(section.Address))
                graph.AddLock(Describe(section, reading.LoaderLock));
        }
    }

    /// <summary>What is read once per dump, and only when some thread has no managed wait (nearly always: a dump has idle threads).</summary>
    private sealed class Reading
    {
        public Reading(WindowsProcess process, Limits limits)
        {
            var symbols = new NativeSymbolizer(process.Dump, process.Dump.Modules, limits);
            Stacks = new ProcessStacks(process, symbols, limits);
            Probe = CriticalSectionProbe.For(process, WindowsFlavor.Detect(process.Dump, symbols).Encoding);
            LoaderLock = process.LoaderLockAddress(process.Peb()) ?? 0;
            PointerSize = process.PointerSize;
        }

        public ProcessStacks Stacks { get; }

        public CriticalSectionProbe Probe { get; }

        public ulong LoaderLock { get; }

        public int PointerSize { get; }
    }

    /// <summary>The outermost critical-section frame of the wait (EnterCriticalSection calls RtlEnterCriticalSection, which calls the wait).</summary>
    private static int Outermost(IReadOnlyList<NativeFrame> frames)
    {
        int found = -1;
        for (int i = 1; i < frames.Count && i < 16; i++)
            if (WindowsWaitCalls.IsCriticalSectionEntry(frames[i]))
                found = i;
        return found;
    }

    /// <summary>
    /// The section the thread waits for: among the registers its critical-section frames kept (unwound x64 frames), then
    /// the stack words from its stack pointer to just past that call's frame, the first that is a critical section of
    /// this process, held by another thread, with a waiter counted.
    /// </summary>
    private static CriticalSection? WaitedSection(Reading reading, WindowsThread native, IReadOnlyList<NativeFrame> frames, int entry)
    {
        var tried = new HashSet<ulong>();
        IEnumerable<ulong> registers = frames.Take(entry + 1).SelectMany(f => f.X64Registers ?? []);
        ulong below = (frames[entry].StackSlot ?? 0) + 64UL * (ulong)reading.PointerSize;
        foreach (ulong candidate in registers.Concat(reading.Stacks.StackWords(native, below)))
        {
            if (candidate == 0 || candidate % (ulong)reading.PointerSize != 0 || !tried.Add(candidate))
                continue;
            if (tried.Count > MaxCandidates)
                return null;
            CriticalSectionCheck check = reading.Probe.Check(candidate);
            if (check is { IsPlausible: true, Section: { IsHeld: true, Waiters: > 0 } section } && section.OwningThread != native.ThreadId)
                return section;
        }
        return null;
    }

    private static LockState Describe(CriticalSection section, ulong loaderLock)
    {
        uint owner = (uint)section.OwningThread;
        string facts = $"LockCount {section.LockCount} ({section.LockCountMeaning}), RecursionCount {section.RecursionCount}, OwningThread 0x{owner:x}";
        return new LockState(section.Address, TypeName, LockKindName.NativeMutex, [(owner, HoldMode.Owner)])
        {
            Name = section.Address == loaderLock ? "the loader lock (PEB.LoaderLock)" : null,
            Detail = facts,
        };
    }
}
