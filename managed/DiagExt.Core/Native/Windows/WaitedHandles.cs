using DiagExt.Core.Native.Stacks;

namespace DiagExt.Core.Native.Windows;

/// <summary>
/// The handles a thread blocked in NtWaitForMultipleObjects waits on, where its registers still hold the call's
/// arguments. Only one case is read, the one seen and checked: x64, the handle array in rdx (the second argument,
/// which Wine's syscall frame keeps), on the thread's own stack, with a known count: 1 under WaitForSingleObject(Ex)
/// (which Wine and kernelbase route through it), else r10 (the first argument) when it holds 1..64. Whether a
/// Windows kernel's context of a thread inside a system call keeps those registers is not known here; a wrong guess
/// gives values that are no handle of the dump, which the caller ignores.
/// </summary>
internal static class WaitedHandles
{
    /// <summary>MAXIMUM_WAIT_OBJECTS.</summary>
    private const int MaxWaitObjects = 64;

    private const int Rdx = 2, R10 = 10;

    /// <summary>Null when the dump does not tell.</summary>
    public static IReadOnlyList<ulong>? Read(WindowsProcess process, WindowsThread thread, IReadOnlyList<NativeFrame> frames)
    {
        if (process.PointerSize != 8 || thread.Registers is not { X64General: { Count: 16 } general } registers || frames.Count == 0)
            return null;
        if (!frames[0].Symbol.Is("NtWaitForMultipleObjects") && !frames[0].Symbol.Is("ZwWaitForMultipleObjects"))
            return null;
        int count = SingleObjectWait(frames) ? 1 : general[R10] is >= 1 and <= MaxWaitObjects ? (int)general[R10] : 0;
        ulong array = general[Rdx];
        if (count == 0 || array % 8 != 0 || array < registers.StackPointer || array + (ulong)count * 8 > thread.StackEnd)
            return null;
        if (process.Dump.ReadExactly(array, count * 8) is not { } bytes)
            return null;
        var handles = new ulong[count];
        for (int i = 0; i < count; i++)
            handles[i] = BinaryReads.U64(bytes, i * 8);
        return handles;
    }

    /// <summary>WaitForSingleObject(Ex) among the OS frames right above the system call: the wait is on one handle.</summary>
    private static bool SingleObjectWait(IReadOnlyList<NativeFrame> frames)
    {
        for (int i = 1; i < frames.Count && i < 8; i++)
        {
            if (frames[i].Symbol.Is("WaitForSingleObject") || frames[i].Symbol.Is("WaitForSingleObjectEx"))
                return true;
            if (frames[i].Symbol.Is("WaitForMultipleObjects") || frames[i].Symbol.Is("WaitForMultipleObjectsEx"))
                return false;
        }
        return false;
    }
}
