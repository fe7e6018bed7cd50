using DiagExt.Core.Native.Symbols;
using DiagExt.Core.Native.Windows;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Native.Stacks;

/// <summary>
/// A thread's native call stack without PDBs. On x64 the frames are unwound exactly with the images' .pdata as far
/// as the dump allows; where that stops (an image or its unwind data not captured, code outside any module such
/// as JIT-compiled code) and on x86 (no .pdata), the rest of the stack is scanned for return addresses.
/// </summary>
internal static class NativeStackWalker
{
    private const int Rsp = 4;

    public static IReadOnlyList<NativeFrame> Walk(IMemoryReader memory, NativeSymbolizer symbols, ThreadRegisters registers, ulong stackEnd, int pointerSize, Limits limits)
    {
        var frames = new List<NativeFrame>();
        if (registers.InstructionPointer != 0)
            frames.Add(new NativeFrame(registers.InstructionPointer, null, symbols.Resolve(registers.InstructionPointer), registers.X64General?.ToArray()));
        ulong scanFrom = registers.StackPointer;
        if (pointerSize == 8 && registers.X64General is { Count: 16 } general)
        {
            (scanFrom, bool complete) = Unwind(memory, symbols, registers.InstructionPointer, [.. general], stackEnd, limits, frames);
            if (complete)
                return frames;
        }
        NativeStackScanner.Scan(memory, symbols, scanFrom, stackEnd, pointerSize, limits, frames);
        return frames;
    }

    /// <returns>Where scanning should go on, and whether the unwind reached the thread's first frame (nothing left to scan).</returns>
    private static (ulong ScanFrom, bool Complete) Unwind(IMemoryReader memory, NativeSymbolizer symbols, ulong rip, ulong[] registers, ulong stackEnd, Limits limits, List<NativeFrame> frames)
    {
        ulong lastGood = registers[Rsp];
        while (frames.Count < limits.MaxFramesPerThread)
        {
            ulong before = registers[Rsp];
            if (!X64Unwinder.TryUnwind(memory, symbols, registers, ref rip))
                return (lastGood, false);
            if (rip == 0)
                return (lastGood, true); // RtlUserThreadStart: the outermost frame has no caller
            // A caller's frame lies above its callee's; a return address follows a call. Anything else is a broken unwind.
            if (registers[Rsp] <= before || registers[Rsp] > stackEnd || !NativeStackScanner.IsReturnAddress(memory, symbols, rip))
                return (lastGood, false);
            frames.Add(new NativeFrame(rip, registers[Rsp] - 8, symbols.Resolve(rip), [.. registers]));
            lastGood = registers[Rsp];
        }
        return (lastGood, true);
    }
}
