using System.Buffers.Binary;
using System.Runtime.InteropServices;
using DiagExt.Core.Native.Windows;

namespace DiagExt.Core.Targets.Stacks;

/// <summary>
/// A thread's register context as ClrMD gives it (a Windows CONTEXT record, also for Linux cores and live processes):
/// its stack pointer, and every aligned word of the record, since any register may hold a reference.
/// </summary>
internal sealed record ThreadRegisterWords(ulong StackPointer, ulong[] Words)
{
    private const int MaxContextBytes = 4096;

    public static ThreadRegisterWords? Read(Target target, uint osThreadId)
    {
        if (Context(target, osThreadId) is not { } context)
            return null;
        int pointerSize = target.PointerSize;
        ThreadRegisters? registers = target.DataTarget.DataReader.Architecture switch
        {
            Architecture.X64 => ThreadRegisters.FromX64Context(context, "context"),
            Architecture.X86 => ThreadRegisters.FromX86Context(context, "context"),
            _ => null, // a layout DiagExt does not read: the words still count, the stack pointer is unknown
        };
        return new ThreadRegisterWords(registers?.StackPointer ?? 0, NonZeroWords(context, pointerSize));
    }

    /// <summary>The thread's whole CONTEXT record as ClrMD gives it; null when the dump or process has none for it.</summary>
    public static byte[]? Context(Target target, uint osThreadId)
    {
        byte[] context = new byte[MaxContextBytes];
        try
        {
            return target.DataTarget.DataReader.GetThreadContext(osThreadId, 0xFFFFFFFF, context) ? context : null;
        }
        catch (Exception e) when (e is not OutOfMemoryException)
        {
            return null; // no context for this thread in the dump
        }
    }

    private static ulong[] NonZeroWords(ReadOnlySpan<byte> bytes, int pointerSize)
    {
        var words = new List<ulong>();
        for (int i = 0; i + pointerSize <= bytes.Length; i += pointerSize)
        {
            ulong value = pointerSize == 8 ? BinaryPrimitives.ReadUInt64LittleEndian(bytes[i..]) : BinaryPrimitives.ReadUInt32LittleEndian(bytes[i..]);
            if (value != 0)
                words.Add(value);
        }
        return [.. words];
    }
}
