using DiagExt.Core.Native.Stacks;
using DiagExt.Core.Native.Windows;
using DiagExt.Core.Reports;

namespace DiagExt.Core.Detectors.LoaderLock;

/// <summary>The evidence lines of a loader-lock finding: the lock's fields, the owner, each waiter, how frames were named.</summary>
internal static class LoaderLockEvidence
{
    /// <summary>Frames shown per stack: enough to reach the loader entry point on real stacks.</summary>
    public const int StackFramesShown = 24;

    public static List<Markup> Build(LoaderLockCase c)
    {
        CriticalSection cs = c.Lock;
        var lines = new List<Markup>
        {
            Markup.Line().Text("loader lock ").Native(cs.Address).Text(" (PEB ").Native(c.State.Peb).Text($" + 0x{c.Process.Layout.PebLoaderLock:x}): OwningThread ")
                .Thread((uint)cs.OwningThread).Text($", RecursionCount {cs.RecursionCount}, LockCount {cs.LockCount} ({cs.LockCountMeaning})"),
            Markup.Text($"process: {c.Process.Description}{(c.Flavor.Wine ? ", under Wine" : "")}{(c.Flavor.WineWriter ? " (dump written by Wine's dbghelp, which copies memory while the process runs)" : "")}"),
        };
        if (c.Owner is { } owner)
            AddOwner(lines, c, owner);
        foreach (Victim v in c.Victims.Victims)
        {
            string caller = v.CallerFrame?.Symbol.ModuleFileName is { } m ? $", called from {m}" : "";
            lines.Add(Markup.Line().Text($"waiter: thread {v.Thread.Index} (").Thread(v.Thread.ThreadId).Text($") in {v.ApiName}{caller}: {string.Join("; ", v.Proof)}"));
            lines.Add(Markup.Text($"  stack: {Stack(v.Frames, v.ApiFrame)}"));
        }
        if (cs.Waiters > 0 || c.Victims.Victims.Count > 0)
            lines.Add(Markup.Text($"LockCount counts {cs.Waiters} waiting; {c.Victims.Victims.Count} found waiting on the stacks" +
                (c.Victims.Victims.Any(v => v.Style == VictimStyle.LoadOwner) ? " (Windows 10 waiters wait on the loader's event, not on the lock itself)" : "")));
        foreach (var (thread, api) in c.Victims.Unexplained)
            lines.Add(Markup.Line().Text($"also in {api}, waiting on something this dump does not show: thread {thread.Index} (").Thread(thread.ThreadId).Text(")"));
        lines.Add(Markup.Text(FramesNote(c)));
        return lines;
    }

    /// <summary>"ntdll!NtYieldExecution+0x14 &lt;- KERNELBASE!SwitchToThread+0x12 &lt;- ..." through the frame that matters and its caller.</summary>
    public static string Stack(IReadOnlyList<NativeFrame> frames, NativeFrame? upTo)
    {
        if (frames.Count == 0)
            return "not captured";
        IReadOnlyList<NativeFrame> shown = FrameSearch.ThroughCaller(frames, upTo, StackFramesShown);
        return string.Join(" <- ", shown.Select(f => f.Symbol.ToString())) + (frames.Count > shown.Count ? " <- ..." : "");
    }

    private static void AddOwner(List<Markup> lines, LoaderLockCase c, OwnerAnalysis owner)
    {
        string activity = owner.Activity is { } a
            ? $"{LoaderActivityText.Verb(a)} ({owner.ActivityFrame!.Symbol}): under the lock run {LoaderActivityText.RunsUnderLock(a)}"
            : "no exported loader function on its stack";
        string code = owner.CodeFrame is { } f ? $"; its own code there: {f.Symbol.ModuleFileName} ({f.Symbol})" : "";
        lines.Add(Markup.Line().Text($"owner: thread {owner.Thread.Index} (").Thread(owner.Thread.ThreadId).Text($") {activity}{code}"));
        lines.Add(Markup.Text($"  stack: {Stack(owner.Frames, owner.ActivityFrame)}"));
        if (owner.IsLoadOwner)
            lines.Add(Markup.Text("  TEB.SameTebFlags.LoadOwner is set: other loads wait for this thread (Windows 10+)"));
        if (owner.WaitsFor is { } cs)
            lines.Add(Markup.Line().Text("  waits to enter critical section ").Native(cs.Address).Text(" held by thread ").Thread((uint)cs.OwningThread)
                .Text($" (RecursionCount {cs.RecursionCount}, LockCount {cs.LockCount}: {cs.LockCountMeaning}; checked as a whole: its owner is a thread of this dump, its counts and DebugInfo fit)"));
        foreach (WindowsHandle handle in owner.WaitsOn ?? [])
        {
            MarkupBuilder line = Markup.Line().Text($"  waits on handle 0x{handle.Value:x}: ");
            if (handle.ThreadId is { } thread)
                line.Text("a thread handle of thread ").Thread(thread).Text(" (the dump's handle data: its client id and TEB)");
            else
                line.Text(handle.TypeName is { } type ? $"{type} (the dump's handle data)" : "the dump has no handle data for it");
            lines.Add(line);
        }
        if (c.Cycle.CouldSignal.Count > 0)
            lines.Add(Markup.Text("  likely, not certain: a dump cannot show that no other thread, process or timer would give what the owner waits for"));
        // The times themselves are on the owner's thread line. A dump without any says so once, on the report's
        // last line; here only a thread the dump's times leave out.
        if (c.OwnerCpu is null && c.CpuUnavailable is null)
            lines.Add(Markup.Text("  CPU: not recorded for this thread"));
    }

    private static string FramesNote(LoaderLockCase c)
    {
        if (!c.FramesNamed)
            return "frames: the module images are not in this dump, so stacks cannot be named (a full-memory dump, e.g. procdump -ma, has them)";
        return c.Process.PointerSize == 8
            ? "frames: unwound with the images' .pdata unwind data (scanned for return addresses after call instructions where unwinding stops), named from the export tables in the dump; module+0x... is code outside any export (e.g. ntdll's internal Ldrp* functions)"
            : "frames: return addresses found on the stack after call instructions, named after the nearest export below (32-bit images have no .pdata): an internal function can carry the name of the export before it, and a stale return address can sit between real ones";
    }
}
