using System.Runtime.InteropServices;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// Threads of a Linux process blocked in pthread_mutex_lock: stopped in the futex call (<see cref="FutexWait"/>) on a
/// word that is a locked pthread mutex owned by a thread of the process (<see cref="PthreadMutex"/>). Each is a lock
/// wait of the same graph as the managed ones, so a cycle through a Monitor and a native mutex is one deadlock. Such a
/// thread may have no managed wait frame at all (its innermost managed frame is a P/Invoke), which is why the managed
/// waits skip it. glibc's loader locks (<see cref="GlibcLoaderLock"/>) are named, with the native frames of their owner.
/// </summary>
internal sealed class NativeMutexWaits : IWaitSource
{
    public const string TypeName = "pthread_mutex_t";

    /// <summary>The value glibc's lock-wait passes to FUTEX_WAIT for an ordinary mutex: "locked, with waiters".</summary>
    private const ulong Contended = 2;

    private const ulong FutexTidMask = 0x3FFFFFFF;

    public void AddTo(WaitGraph graph, HangScene scene)
    {
        Target target = scene.Target;
        if (target.DataTarget.DataReader.TargetPlatform != OSPlatform.Linux)
            return;
        ElfModules? modules = null;
        GlibcLoaderLock? loader = null;
        foreach (TargetThread thread in target.Threads)
        {
            scene.Cancellation.ThrowIfCancellationRequested();
            if (graph.WaitOf(thread.OsThreadId) is not null || FutexWait.Of(target, thread.OsThreadId) is not { } futex)
                continue;
            if (PthreadMutex.Read(target, futex.Word) is not { } mutex || !mutex.IsLockedBy(scene.Threads) || !Expects(futex, mutex))
                continue;
            if (modules is null)
            {
                modules = new ElfModules(target);
                loader = GlibcLoaderLock.Find(target, modules);
            }
            IReadOnlyList<string> frames = NativeStack.Frames(target, modules, thread, futex.Registers.InstructionPointer, futex.Registers.StackPointer);
            // The first named frame is the call the wait is in (pthread_mutex_lock); the innermost one is libc's unexported lock-wait.
            string waitsIn = frames.FirstOrDefault(f => f.Contains('!')) ?? frames[0];
            WaitFrames.Site site = WaitFrames.Native(thread);
            graph.AddWait(new ThreadWait(thread, site, default)
            {
                NativeLock = mutex.Address,
                NativeFrame = new ManagedFrame(futex.Registers.InstructionPointer, futex.Registers.StackPointer, null, null, waitsIn),
            });
            if (!graph.Locks.ContainsKey(mutex.Address))
                graph.AddLock(Describe(target, scene.Threads, modules, loader, mutex));
        }
    }

    /// <summary>The value the wait expects is the mutex's: 2 for an ordinary one, the owner's TID for a robust one; PI waits pass none.</summary>
    private static bool Expects(FutexWait futex, PthreadMutex mutex) =>
        futex.IsPriorityInherit || futex.Expected == Contended || (futex.Expected & FutexTidMask) == mutex.Owner;

    private static LockState Describe(Target target, ThreadIndex threads, ElfModules modules, GlibcLoaderLock? loader, PthreadMutex mutex)
    {
        string taken = mutex.IsRecursive ? $", taken {mutex.Count} time{(mutex.Count == 1 ? "" : "s")}" : "";
        string facts = $"{mutex.KindText}{taken}, owner TID 0x{mutex.Owner:x} ({mutex.Owner})";
        if (loader?.NameOf(mutex.Address) is { } name)
        {
            string ownerStack = FutexWait.RegistersOf(target, mutex.Owner) is { } r && threads.ByOsId(mutex.Owner) is { } owner
                ? string.Join(" <- ", NativeStack.Frames(target, modules, owner, r.InstructionPointer, r.StackPointer))
                : "not in the dump";
            return new LockState(mutex.Address, TypeName, LockKindName.NativeMutex, [(mutex.Owner, HoldMode.Owner)])
            {
                Name = name,
                Detail = $"{loader.Where(mutex.Address)}; {facts}; the owner's native frames (return addresses found on its stack, a stale one possible): {ownerStack}",
            };
        }
        string? symbol = modules.DataName(mutex.Address);
        return new LockState(mutex.Address, TypeName, LockKindName.NativeMutex, [(mutex.Owner, HoldMode.Owner)])
        {
            Name = symbol is null ? null : $"pthread mutex {symbol}",
            Detail = facts,
        };
    }
}
