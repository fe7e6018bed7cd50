using DiagExt.Core.Native;
using DiagExt.Core.Native.Windows;
using DiagExt.Core.Targets;
using DiagExt.Core.Targets.Stacks;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// A thread stopped in the futex system call, read from its registers (x86-64 Linux): the instruction before rip is
/// `syscall` (0F 05), rax is the call's number (202) or the error the kernel puts there while the call is interrupted
/// (-ERESTARTSYS and its kin; a dump is taken with the thread stopped inside the call), and the operation in rsi is a
/// wait (FUTEX_WAIT, FUTEX_WAIT_BITSET, FUTEX_LOCK_PI, FUTEX_LOCK_PI2). rdi is the futex word's address, which for a
/// pthread mutex is the mutex itself (__lock is its first field); rdx the value waited on.
/// </summary>
internal sealed record FutexWait(ulong Word, uint Operation, ulong Expected, ThreadRegisters Registers)
{
    private const ulong FutexCall = 202;
    private const uint Wait = 0, LockPi = 6, WaitBitset = 9, LockPi2 = 13, CommandMask = 0x7F;
    private const int Rax = 0, Rdx = 2, Rsi = 6, Rdi = 7;

    /// <summary>The largest errno the kernel returns (MAX_ERRNO); -ERESTARTSYS (512) and its kin are below it.</summary>
    private const ulong MaxErrno = 4095;

    public bool IsPriorityInherit => Operation is LockPi or LockPi2;

    public static FutexWait? Of(Target target, uint osThreadId)
    {
        if (RegistersOf(target, osThreadId) is not { X64General: { Count: 16 } r } registers || registers.InstructionPointer < 2)
            return null;
        ulong rax = r[Rax];
        if (rax != FutexCall && rax < unchecked(0UL - MaxErrno))
            return null;
        uint operation = (uint)r[Rsi] & CommandMask;
        if (operation is not (Wait or WaitBitset or LockPi or LockPi2))
            return null;
        Span<byte> call = stackalloc byte[2];
        if (target.ReadMemory(registers.InstructionPointer - 2, call) != 2 || call[0] != 0x0F || call[1] != 0x05)
            return null;
        return new FutexWait(r[Rdi], operation, r[Rdx], registers);
    }

    /// <summary>The thread's x64 registers as ClrMD gives them (a CONTEXT record, also for Linux cores); null on another architecture or without a context.</summary>
    public static ThreadRegisters? RegistersOf(Target target, uint osThreadId)
    {
        if (target.DataTarget.DataReader.Architecture != System.Runtime.InteropServices.Architecture.X64)
            return null;
        if (ThreadRegisterWords.Context(target, osThreadId) is not { } context)
            return null;
        return ThreadRegisters.FromX64Context(context, "context");
    }
}
