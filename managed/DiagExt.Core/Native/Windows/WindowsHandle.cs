using DiagExt.Core.Native.Minidump;

namespace DiagExt.Core.Native.Windows;

/// <summary>
/// A handle of the dumped process as far as the dump tells: its object type and, for a thread handle, which thread
/// of the dump it is.
/// </summary>
/// <param name="TypeName">"Thread", "Event", "Semaphore", "Mutant", ... or null when the writer recorded none.</param>
/// <param name="ThreadId">For a thread handle, the thread it opens, when the dump proves it (see <see cref="WindowsHandles"/>).</param>
internal sealed record WindowsHandle(ulong Value, string? TypeName, uint? ThreadId)
{
    public bool IsThread => TypeName == "Thread";

    /// <summary>Objects another thread signals: events, semaphores, mutexes (Windows calls a mutex a Mutant).</summary>
    public bool IsSignalledByThreads => TypeName is "Event" or "Semaphore" or "Mutant" or "KeyedEvent";
}

/// <summary>
/// The process's handles from the dump's handle data stream. The layout of a thread handle's object record
/// (MiniThreadInformation1) is not documented; it is read as THREAD_BASIC_INFORMATION (exit status, TEB, client id)
/// and believed only when all of it fits: the process id is the dump's, the thread id is a thread of the dump and
/// the TEB is that thread's. A record of any other layout cannot pass all three, and its thread stays unknown.
/// </summary>
internal sealed class WindowsHandles
{
    /// <summary>STILL_ACTIVE: the exit status of a thread that has not ended.</summary>
    private const uint StillActive = 0x103;

    private readonly Dictionary<ulong, WindowsHandle> _byValue = new();

    private WindowsHandles(IEnumerable<WindowsHandle> handles)
    {
        foreach (WindowsHandle handle in handles)
            _byValue.TryAdd(handle.Value, handle);
    }

    public int Count => _byValue.Count;

    /// <summary>Null when the dump has no handle data (Wine's own writer never writes it).</summary>
    public static WindowsHandles? Read(WindowsProcess process)
    {
        if (process.Dump.Handles is not { } handles)
            return null;
        uint? processId = process.Dump.MiscInfo?.ProcessId;
        return new WindowsHandles(handles.Select(h => new WindowsHandle(h.Value, h.TypeName, h.TypeName == "Thread" ? ThreadOf(process, processId, h) : null)));
    }

    public WindowsHandle? Find(ulong value) => _byValue.GetValueOrDefault(value);

    private static uint? ThreadOf(WindowsProcess process, uint? processId, MinidumpHandle handle)
    {
        // THREAD_BASIC_INFORMATION: ExitStatus, TebBaseAddress, ClientId { UniqueProcess, UniqueThread }, ...
        int pointer = process.Dump.SystemInfo?.Is64Bit == false ? 4 : 8;
        int teb = pointer, clientProcess = pointer * 2, clientThread = pointer * 3, size = pointer * 4;
        foreach (MinidumpHandleObjectInfo info in handle.ObjectInfo)
        {
            if (info.InfoType != MinidumpHandleObjectInfo.ThreadInformation1 || info.Data.Length < size || BinaryReads.U32(info.Data, 0) != StillActive)
                continue;
            ulong Read(int offset) => pointer == 8 ? BinaryReads.U64(info.Data, offset) : BinaryReads.U32(info.Data, offset);
            ulong threadId = Read(clientThread);
            if (processId is { } pid && Read(clientProcess) != pid)
                continue;
            MinidumpThread? thread = process.Dump.Threads.FirstOrDefault(t => t.ThreadId == threadId);
            if (thread is not null && thread.Teb == Read(teb))
                return thread.ThreadId;
        }
        return null;
    }
}
