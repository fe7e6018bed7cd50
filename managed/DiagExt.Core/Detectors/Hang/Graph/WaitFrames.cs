using DiagExt.Core.Targets;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// Tells from a thread's innermost frames what it waits in. The frames above the user's code are the runtime's
/// threading plumbing (a Task wait ends in ManualResetEventSlim.Wait and Monitor.Wait; a Lock in WaitHandle.WaitOne):
/// the outermost recognised frame of that run names the wait, so a .Result is a task wait, not a Monitor.Wait.
/// </summary>
internal static class WaitFrames
{
    /// <summary>A recognised wait: its kind, the outermost frame of the wait (index) and the first frame outside the threading code (-1 if none).</summary>
    public sealed record Site(WaitKind Kind, int WaitFrame, int UserFrame);

    /// <summary>
    /// The site of a wait in native code (a pthread mutex, a critical section): no managed wait frame, and the user
    /// frame is the innermost managed one (the P/Invoke), -1 for a thread with none.
    /// </summary>
    public static Site Native(TargetThread thread)
    {
        IReadOnlyList<ManagedFrame> frames = thread.Frames;
        for (int i = 0; i < frames.Count; i++)
            if (frames[i].MethodName is not null)
                return new Site(WaitKind.NativeMutex, 0, i);
        return new Site(WaitKind.NativeMutex, 0, -1);
    }

    private static readonly Dictionary<(string Type, string Method), WaitKind> Methods = Build();

    public static Site? Classify(IReadOnlyList<ManagedFrame> frames)
    {
        WaitKind? kind = null;
        int waitFrame = -1, i = 0;
        for (; i < frames.Count; i++)
        {
            ManagedFrame frame = frames[i];
            if (frame.MethodName is null)
                continue; // a runtime transition frame ([InlinedCallFrame]) inside the wait
            if (!IsThreadingCode(frame.TypeName!))
                break;
            if (Lookup(frame) is { } k)
            {
                kind = k;
                waitFrame = i;
            }
        }
        return kind is { } found ? new Site(found, waitFrame, i < frames.Count ? i : -1) : null;
    }

    private static WaitKind? Lookup(ManagedFrame frame)
    {
        string type = frame.TypeName!;
        // Generic instantiations ("Task`1[[System.Int32, ...]]") and awaiters of every shape reduce to their definition.
        int bracket = type.IndexOfAny(['[', '<']);
        if (bracket > 0)
            type = type[..bracket];
        if (type == HangNames.Task && frame.TypeName!.Length > type.Length)
            type += "`1"; // ClrMD names Task<int> "System.Threading.Tasks.Task<System.Int32>"
        if (type.StartsWith("System.Runtime.CompilerServices.", StringComparison.Ordinal) && type.Contains("Awaite", StringComparison.Ordinal) && frame.MethodName == "GetResult")
            return WaitKind.Task;
        return Methods.TryGetValue((type, frame.MethodName!), out WaitKind kind) ? kind : null;
    }

    private static bool IsThreadingCode(string type) =>
        type.StartsWith("System.Threading.", StringComparison.Ordinal) || type.StartsWith("System.Runtime.CompilerServices.", StringComparison.Ordinal);

    private static Dictionary<(string, string), WaitKind> Build()
    {
        var map = new Dictionary<(string, string), WaitKind>();
        void Add(string type, WaitKind kind, params string[] methods)
        {
            foreach (string m in methods)
                map[(type, m)] = kind;
        }
        // Framework: Enter -> ReliableEnter (an FCALL); .NET: Enter -> Enter_Slowpath.
        Add(HangNames.Monitor, WaitKind.MonitorEnter, "Enter", "Enter_Slowpath", "ReliableEnter", "ReliableEnterTimeout", "TryEnter", "TryEnter_Slowpath");
        Add(HangNames.Monitor, WaitKind.MonitorWait, "Wait", "ObjWait");
        Add(HangNames.Lock, WaitKind.LockEnter, "Enter", "EnterScope", "TryEnter", "TryEnterSlow", "EnterAndGetCurrentThreadId");
        Add(HangNames.ReaderWriterLockSlim, WaitKind.ReadLock, "EnterReadLock", "TryEnterReadLock", "TryEnterReadLockCore");
        Add(HangNames.ReaderWriterLockSlim, WaitKind.UpgradeableLock, "EnterUpgradeableReadLock", "TryEnterUpgradeableReadLock", "TryEnterUpgradeableReadLockCore");
        Add(HangNames.ReaderWriterLockSlim, WaitKind.WriteLock, "EnterWriteLock", "TryEnterWriteLock", "TryEnterWriteLockCore");
        Add(HangNames.SemaphoreSlim, WaitKind.Semaphore, "Wait", "WaitUntilCountOrTimeout");
        Add(HangNames.Task, WaitKind.Task, "Wait", "WaitAll", "WaitAllCore", "WaitAny", "InternalWait", "InternalWaitCore", "SpinThenBlockingWait", "InternalWaitAll");
        Add("System.Threading.Tasks.Task`1", WaitKind.Task, "GetResultCore", "get_Result");
        Add(HangNames.Thread, WaitKind.Join, "Join");
        Add(HangNames.Thread, WaitKind.Sleep, "Sleep", "SleepInternal");
        Add(HangNames.ManualResetEventSlim, WaitKind.ResetEvent, "Wait");
        Add(HangNames.WaitHandle, WaitKind.Handle, "WaitOne", "WaitOneNoCheck", "WaitAny", "WaitAll", "WaitMultiple", "WaitMultipleIgnoringSyncContext", "WaitOneCore");
        return map;
    }
}
