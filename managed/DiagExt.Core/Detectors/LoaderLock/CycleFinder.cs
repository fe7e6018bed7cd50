using DiagExt.Core.Native.Windows;

namespace DiagExt.Core.Detectors.LoaderLock;

/// <summary>
/// Whether the owner's wait closes a cycle through the loader lock. Certain when the thing waited for can only come
/// from a thread behind the lock: a critical section that thread holds (its LockCount counting the owner's wait), or
/// that thread's end (a wait on its handle; a thread blocked at its start behind the lock never ends). Likely when
/// the owner, in code of its own, waits for an event, a semaphore, a mutex or an object the dump does not name while
/// threads are blocked behind the lock: they could be the ones to give it, but nothing in a dump says no one else would.
/// </summary>
internal static class CycleFinder
{
    public static CycleProof Find(OwnerAnalysis owner, IReadOnlyList<Victim> victims)
    {
        if (owner.State != OwnerState.Waiting || !owner.CalledFromOwnCode)
            return CycleProof.None;
        if (owner.WaitsFor is { } cs)
            return HolderOf(cs, victims) is { } holder && cs.Waiters >= 1
                ? new CycleProof(DeadlockCertainty.Certain, holder, [], "Deadlock: the owner waits for a lock held by a thread that waits for the loader lock.")
                : CycleProof.None;
        if (owner.WaitsOn is [{ IsThread: true, ThreadId: { } threadId } handle] && victims.FirstOrDefault(v => v.Thread.ThreadId == threadId) is { } ending)
        {
            string why = ending.Activity == LoaderActivity.StartingThread ? "which cannot even start" : "which waits for the loader lock";
            return new CycleProof(DeadlockCertainty.Certain, ending, [],
                $"Deadlock: the owner waits for thread 0x{threadId:x} to end (thread handle 0x{handle.Value:x}), {why}.");
        }
        if (owner.WaitsOn is { } waited && waited.Any(h => h.IsThread && h.ThreadId is { } id && victims.All(v => v.Thread.ThreadId != id)))
            return CycleProof.None; // it waits for a thread that is not behind the lock: that thread can end
        if (owner.WaitsOn is { Count: > 0 } typed && typed.All(h => h.TypeName is not null && !h.IsThread && !h.IsSignalledByThreads))
            return CycleProof.None; // a file, a process, a timer: nothing the threads behind the lock would set
        if (victims.Count == 0)
            return CycleProof.None;
        string names = string.Join(", ", victims.Select(v => $"thread {v.Thread.Index} (0x{v.Thread.ThreadId:x})"));
        return new CycleProof(DeadlockCertainty.Likely, null, victims,
            $"Likely deadlock: the owner waits on {WaitedObject(owner.WaitsOn)}; the threads that could set it wait for the loader lock: {names}.");
    }

    /// <summary>"Event handle 0x30", "handles 0x30, 0x34", or "an object this dump does not name".</summary>
    private static string WaitedObject(IReadOnlyList<WindowsHandle>? handles) => handles switch
    {
        null or [] => "an object this dump does not name",
        [var one] => one.TypeName is { } type ? $"{type} handle 0x{one.Value:x}" : $"handle 0x{one.Value:x}, whose object this dump does not name",
        _ => "handles " + string.Join(", ", handles.Select(h => h.TypeName is { } type ? $"0x{h.Value:x} ({type})" : $"0x{h.Value:x}")),
    };

    private static Victim? HolderOf(CriticalSection cs, IReadOnlyList<Victim> victims) =>
        victims.FirstOrDefault(v => v.Thread.ThreadId == cs.OwningThread);
}
