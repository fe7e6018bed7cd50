using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// Follows a thread's wait on a task, a thread or a ManualResetEventSlim to what would end it (<see cref="ObjectWait"/>):
/// a Join to the joined thread; a task to the thread running it, or through the async methods it is made of (each
/// suspended method's awaited task, <see cref="AwaitedTask"/>) to a timer, a semaphore node, a promise nobody runs, or
/// a thread running a step of it. Bounded: <see cref="MaxSteps"/> tasks, each once (a task continuing into itself ends).
/// </summary>
internal sealed class WaitFollower(Target target, ThreadIndex threads, Waitables waitables, IReadOnlyDictionary<ulong, HashSet<uint>> waitersOf)
{
    /// <summary>Tasks followed from one wait: async call chains are tens deep, not hundreds.</summary>
    public const int MaxSteps = 256;

    public ObjectWait? Follow(ThreadWait wait)
    {
        ClrObject waited = wait.Target;
        if (waited.IsNull)
            return null;
        return wait.Site.Kind switch
        {
            WaitKind.Join => Join(waited),
            WaitKind.ResetEvent => ResetEvent(waited),
            WaitKind.Task => Task(waited),
            _ => null,
        };
    }

    private ObjectWait Join(ClrObject thread)
    {
        int? id = FieldReader.Int(thread, HangNames.ManagedThreadId);
        return id is int m && threads.ByManagedId(m) is { } joined
            ? new ObjectWait(thread.Address, "Thread", [], WaitEnd.Thread, thread.Address, $"thread {ThreadRefs.Name(joined)} must end first", joined.OsThreadId)
            : new ObjectWait(thread.Address, "Thread", [], WaitEnd.Other, thread.Address, $"the joined thread (managed {id?.ToString() ?? "?"}) is not among the process's threads", null);
    }

    private static ObjectWait ResetEvent(ClrObject mres)
    {
        string detail = ResetEventState.Read(mres)?.Detail ?? "state unreadable";
        return new ObjectWait(mres.Address, "ManualResetEventSlim", [], WaitEnd.ResetEvent, mres.Address, $"a ManualResetEventSlim ({detail}) with no owner: only a call to Set wakes it", null);
    }

    private ObjectWait Task(ClrObject first)
    {
        var steps = new List<string>();
        var seen = new HashSet<ulong>();
        string firstName = "";
        ObjectWait End(WaitEnd end, ulong what, string text, uint? blocker = null) => new(first.Address, firstName, steps, end, what, text, blocker);

        ClrObject task = first;
        for (int n = 0; ; n++)
        {
            // Read once per task: its async method (if it is one) names it and is the step followed.
            AsyncWaiter? method = task.Type?.GetFieldByName(HangNames.StateMachine) is not null ? AsyncWaiter.FromContinuation(task) : null;
            string name = method is null ? TypeNames.Short(task.Type?.Name ?? "Task") : $"task of async {method.Method}";
            if (n == 0)
                firstName = name;
            if (n >= MaxSteps)
                return End(WaitEnd.Cut, task.Address, $"followed {MaxSteps} tasks without an end (cut there)");
            if (!seen.Add(task.Address))
                return End(WaitEnd.Cut, task.Address, $"the chain comes back to {name} 0x{task.Address:x} (a task awaiting itself: corrupt data)");
            if (TaskState.IsCompleted(task))
                return End(WaitEnd.Other, task.Address, $"{name} 0x{task.Address:x} has completed (the waiter is about to wake)");
            IReadOnlySet<uint> waiting = waitersOf.TryGetValue(task.Address, out HashSet<uint>? w) ? w : [];
            if (TaskRunner.Find(task, target.Threads, waiting) is { } run)
                return End(WaitEnd.Thread, task.Address, $"{(n == 0 ? "" : $"{name} 0x{task.Address:x} ")}runs on thread {ThreadRefs.Name(run.Thread)} (in {run.Frame})", run.Thread.OsThreadId);

            string type = task.Type?.Name ?? "";
            if (type.StartsWith(HangNames.DelayPromise, StringComparison.Ordinal))
                return End(WaitEnd.Timer, task.Address, $"Task.Delay's task 0x{task.Address:x}: a timer completes it");
            if (type == HangNames.TaskNode)
                return waitables.SemaphoreOfNode(task.Address) is { } semaphore
                    ? End(WaitEnd.Semaphore, semaphore.Semaphore.Address, $"queued on SemaphoreSlim 0x{semaphore.Semaphore.Address:x} ({semaphore.Detail}): a Release completes it; a semaphore has no owner")
                    : End(WaitEnd.Semaphore, 0, $"queued on a SemaphoreSlim (node 0x{task.Address:x}): a Release completes it");
            if (method is not null)
            {
                string at = $"suspended at await {method.State?.ToString() ?? "?"}";
                steps.Add(n == 0 ? at : $"{name} 0x{task.Address:x} {at}");
                ClrObject next = AwaitedTask.Of(task);
                if (next.IsNull && RemoteAwait.Of(task) is { } behind) // a ValueTask: over a task, or a pending socket operation
                {
                    if (behind.Operation is { } operation)
                        return End(WaitEnd.Remote, operation.Args.Address, operation.Describe());
                    next = behind.Next;
                }
                if (next.IsNull)
                    return End(WaitEnd.Other, task.Address, "suspended on something other than a task (Task.Yield, a ValueTask source): not followed");
                task = next;
                continue;
            }
            if (!FieldReader.Object(task, HangNames.TaskAction).IsNull)
                return End(WaitEnd.Other, task.Address, $"{name} 0x{task.Address:x} is a delegate task no thread runs now (queued or scheduled)");
            if (type == HangNames.Task || type.StartsWith(HangNames.Task + "<", StringComparison.Ordinal))
                return End(WaitEnd.Promise, task.Address,
                    $"{name} 0x{task.Address:x} is a promise (no delegate, no async method): only code calling SetResult on its TaskCompletionSource completes it");
            return End(WaitEnd.Other, task.Address, $"{name} 0x{task.Address:x} is not followed further");
        }
    }
}
