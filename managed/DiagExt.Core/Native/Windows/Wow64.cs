using DiagExt.Core.Native.Minidump;
using DiagExt.Core.Native.Pe;

namespace DiagExt.Core.Native.Windows;

/// <summary>
/// A 32-bit process dumped by a 64-bit writer (procdump64, Task Manager): an AMD64 dump whose threads carry the
/// 64-bit TEB and the 64-bit CONTEXT (the WOW64 layer's own). The 32-bit TEB sits at TEB64 + WowTebOffset
/// (0x2000 before Windows 10), the 32-bit registers in the WOW64 CPU area of TEB64.TlsSlots[1] (+4).
/// Wine's dumps of 32-bit processes instead put the 32-bit registers into the 64-bit CONTEXT: both are handled.
/// </summary>
internal static class Wow64
{
    private const int X86ContextSize = 0x2CC;

    /// <summary>Whether an AMD64 dump is of a 32-bit process: its main image is i386, or the WOW64 CPU DLL is loaded.</summary>
    public static bool IsWow64Process(MinidumpFile dump)
    {
        if (dump.Modules.Any(m => m.FileName.Equals("wow64cpu.dll", StringComparison.OrdinalIgnoreCase)))
            return true;
        return dump.Modules.Count > 0 && PeHeaders.Read(dump, dump.Modules[0].BaseOfImage) is { Machine: PeHeaders.MachineI386 };
    }

    /// <summary>The 32-bit TEB of a thread whose 64-bit TEB is <paramref name="teb64"/>: the candidate whose Self field points at itself.</summary>
    public static ulong? Teb32(IMemoryReader memory, ulong teb64)
    {
        var candidates = new List<ulong>();
        if (memory.TryReadUInt32(teb64 + WindowsLayout.Teb64WowTebOffset, out uint offset) && offset != 0)
            candidates.Add(teb64 + (ulong)(long)(int)offset);
        candidates.Add(teb64 + WindowsLayout.DefaultWowTebOffset);
        foreach (ulong teb32 in candidates)
            if (memory.TryReadUInt32(teb32 + (ulong)WindowsLayout.X86.TebSelf, out uint self) && self == teb32)
                return teb32;
        return null;
    }

    /// <summary>
    /// The 32-bit registers: from the 64-bit CONTEXT when it already holds them (Wine: an instruction pointer below
    /// 4 GB and a stack pointer on the 32-bit stack), else from the WOW64 CPU area (Windows, where the 64-bit CONTEXT
    /// is wow64cpu's own, on the 64-bit stack). Null when neither holds them.
    /// </summary>
    public static ThreadRegisters? X86Registers(IMemoryReader memory, ulong teb64, ReadOnlySpan<byte> context64, ulong stackLimit32, ulong stackBase32)
    {
        bool OnStack(ulong sp) => sp >= stackLimit32 && sp < stackBase32;

        if (ThreadRegisters.FromX64Context(context64, "64-bit CONTEXT holding the 32-bit registers") is { } fromContext
            && fromContext.InstructionPointer <= uint.MaxValue && OnStack(fromContext.StackPointer))
            return fromContext with { X64General = null }; // 32-bit code: no x64 unwinding

        if (memory.TryReadUInt64(teb64 + WindowsLayout.Teb64Wow64CpuReservedSlot, out ulong cpuArea) && cpuArea != 0
            && memory.ReadExactly(cpuArea + 4, X86ContextSize) is { } saved && ThreadRegisters.IsX86Context(saved)
            && ThreadRegisters.FromX86Context(saved, "WOW64 CPU area (TEB64 TLS slot 1)") is { } fromArea && OnStack(fromArea.StackPointer))
            return fromArea;
        return null;
    }
}
