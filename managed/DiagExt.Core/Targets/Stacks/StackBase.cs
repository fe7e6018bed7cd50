using DiagExt.Core.Targets.Live;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Targets.Stacks;

/// <summary>
/// Where a thread's stack ends (its base: the stack grows down from there). The runtime knows it on Windows (the TEB,
/// through ClrMD); a Linux core has no such field, but the mapping holding the stack pointer ends there.
/// </summary>
internal static class StackBase
{
    /// <returns>The base (exclusive) and where it came from, or (0, null) when nothing says.</returns>
    public static (ulong Base, string? Source) Find(Target target, uint osThreadId, ClrThread? thread, ulong stackPointer)
    {
        if (stackPointer == 0)
            return (0, null);
        if (thread?.StackBase is ulong teb && teb > stackPointer)
            return (teb, "the runtime's thread (TEB)");
        if (target.Minidump?.Threads.FirstOrDefault(t => t.ThreadId == osThreadId) is { } dumped
            && dumped.StackStart <= stackPointer && stackPointer - dumped.StackStart < dumped.StackSize)
            return (dumped.StackStart + dumped.StackSize, "the minidump's stack descriptor");
        if (target.FileMemory?.RegionEnd(stackPointer) is > 0 and ulong end)
            return (end, "the dump's memory region holding the stack pointer");
        if (target.Kind == TargetKind.LiveProcess && target.ProcessId is int pid && OperatingSystem.IsLinux() && ProcMaps.RegionEnd(pid, stackPointer) is > 0 and ulong mapped)
            return (mapped, "the mapping holding the stack pointer");
        return (0, null);
    }
}
