using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// From the task a thread blocks on, through the async methods it is made of (each suspended method's awaited task,
/// <see cref="AwaitedTask"/>), to the first await that captured a context: the awaited task's continuation is a
/// SynchronizationContextAwaitTaskContinuation or TaskSchedulerAwaitTaskContinuation whose action is that method's
/// MoveNext. When the awaited task has completed already, the continuation left it (posted to the context): the chain
/// ends there with no context named, for the caller to look for it in the contexts' queues. Bounded like
/// <see cref="WaitFollower"/>: <see cref="WaitFollower.MaxSteps"/> tasks, each once.
/// </summary>
internal static class ContextChain
{
    /// <summary>Continuations read from one task's list: a task awaited by thousands is not this hang's shape.</summary>
    public const int MaxContinuations = 1024;

    /// <summary>Where the chain meets a context: the method, the task it awaits (null when that completed), the context (null: look in the queues).</summary>
    public sealed record Link(AsyncWaiter Method, ClrObject Awaited, ClrObject Context, bool IsScheduler);

    public static Link? Find(ClrObject waited)
    {
        var seen = new HashSet<ulong>();
        ClrObject task = waited;
        for (int n = 0; n < WaitFollower.MaxSteps && !task.IsNull && seen.Add(task.Address); n++)
        {
            if (TaskState.IsCompleted(task) || task.Type?.GetFieldByName(HangNames.StateMachine) is null || AsyncWaiter.FromContinuation(task) is not { } method)
                return null;
            ClrObject awaited = AwaitedTask.Of(task);
            if (awaited.IsNull)
                return new Link(method, CompletedAwaited(task), default, false);
            if (Captured(awaited, task.Address) is { } context)
                return new Link(method, awaited, context.Object, context.IsScheduler);
            task = awaited;
        }
        return null;
    }

    /// <summary>The context or scheduler of <paramref name="awaited"/>'s continuation that resumes <paramref name="box"/>, if one does.</summary>
    private static (ClrObject Object, bool IsScheduler)? Captured(ClrObject awaited, ulong box)
    {
        ClrObject continuation = FieldReader.Object(awaited, HangNames.ContinuationObject);
        foreach (ClrObject c in Continuations(continuation))
        {
            string? type = c.Type?.Name;
            bool scheduler = type == HangNames.SchedulerContinuation;
            if (type != HangNames.SyncContextContinuation && !scheduler)
                continue;
            ClrObject action = FieldReader.Object(c, HangNames.TaskAction);
            if (FieldReader.Object(action, HangNames.DelegateTarget).Address != box)
                continue;
            ClrObject context = FieldReader.Object(c, scheduler ? HangNames.ContinuationScheduler : HangNames.ContinuationContext);
            if (!context.IsNull)
                return (context, scheduler);
        }
        return null;
    }

    /// <summary>A task's continuations: the one object, or the items of its List&lt;object&gt; when several were registered.</summary>
    private static IEnumerable<ClrObject> Continuations(ClrObject continuation)
    {
        if (continuation.IsNull)
            yield break;
        if (continuation.Type?.Name != HangNames.ContinuationList)
        {
            yield return continuation;
            yield break;
        }
        ClrObject items = FieldReader.Object(continuation, HangNames.ListItems);
        int size = FieldReader.Int(continuation, HangNames.ListSize) ?? 0;
        if (items.IsNull || !items.IsArray)
            yield break;
        ClrArray array = items.AsArray();
        int count = Math.Min(Math.Min(size, array.Length), MaxContinuations);
        for (int i = 0; i < count; i++)
        {
            ClrObject item = Safe(array, i);
            if (!item.IsNull)
                yield return item;
        }
    }

    /// <summary>The task still in an awaiter field of a suspended method whose awaited task has completed (the compiler clears it only on resuming).</summary>
    private static ClrObject CompletedAwaited(ClrObject box)
    {
        try
        {
            if (box.Type?.GetFieldByName(HangNames.StateMachine) is not { IsValueType: true })
                return default;
            ClrValueType machine = box.ReadValueTypeField(HangNames.StateMachine);
            if (!machine.IsValid || machine.Type is not { } type)
                return default;
            foreach (ClrInstanceField field in type.Fields.Take(64))
                if (field.Name is { } name && name.StartsWith(HangNames.AwaiterFieldPrefix, StringComparison.Ordinal) && field.IsValueType
                    && field.Type?.GetFieldByName(HangNames.AwaiterTask) is not null
                    && machine.ReadValueTypeField(name) is { IsValid: true } awaiter && awaiter.ReadObjectField(HangNames.AwaiterTask) is { IsNull: false } task
                    && TaskState.IsCompleted(task))
                    return task;
        }
        catch (Exception e) when (e is InvalidOperationException or ArgumentException or IOException)
        {
        }
        return default;
    }

    private static ClrObject Safe(ClrArray array, int index)
    {
        try
        {
            return array.GetObjectValue(index);
        }
        catch (Exception e) when (e is InvalidOperationException or ArgumentException or IOException)
        {
            return default;
        }
    }
}
