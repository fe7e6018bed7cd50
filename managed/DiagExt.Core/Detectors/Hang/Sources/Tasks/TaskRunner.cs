using DiagExt.Core.Targets;
using DiagExt.Core.Targets.Stacks;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// The thread running a task now, from the live stack (issue 26's <see cref="TargetThread.Holds"/>): a real frame of
/// one of the task's own methods (Task.ExecuteEntry for a delegate task, AsyncStateMachineBox.MoveNext for an async
/// method) whose part of the stack holds the task; or, for an async method, a real frame of its state machine's MoveNext
/// whose part of the stack (or its callees') holds the address of the state machine inside the box (a struct's this).
/// Threads that wait on the task run Task methods on it too (Task.Wait): they are excluded.
/// </summary>
internal static class TaskRunner
{
    public static (TargetThread Thread, string Frame)? Find(ClrObject task, IEnumerable<TargetThread> candidates, IReadOnlySet<uint> waiters)
    {
        (string Type, ulong Address)? machine = StateMachineOf(task);
        foreach (TargetThread thread in candidates)
        {
            if (thread.ClrThread is null || waiters.Contains(thread.OsThreadId))
                continue;
            // The method's own MoveNext names the user's code; the box's frames (ExecutionContextCallback) only the plumbing.
            if (machine is { } m && MoveNextFrame(thread, m.Type, m.Address) is { } moveNext)
                return (thread, moveNext);
            if (thread.Holds(task.Address) is { Kind: HoldKind.FrameThis, Word: { } word } && FrameOf(thread, word) is { } frame)
                return (thread, frame);
        }
        return null;
    }

    private static string? FrameOf(TargetThread thread, StackWord word)
    {
        ThreadStack stack = thread.Stack;
        for (int i = 0; i < stack.Frames.Count; i++)
            if (stack.RangeOf(i) is { } range && word.Address >= range.Low && word.Address < range.High)
                return stack.Frames[i].ShortName;
        return word.InRegister ? stack.Frames.FirstOrDefault(f => f.MethodName is not null)?.ShortName : null;
    }

    private static string? MoveNextFrame(TargetThread thread, string machineType, ulong machineAddress)
    {
        ThreadStack stack = thread.Stack;
        for (int i = 0; i < stack.Frames.Count; i++)
            if (stack.Frames[i] is { MethodName: "MoveNext" } f && f.TypeName == machineType && stack.IsReal(i) && stack.FindThrough(machineAddress, i) is not null)
                return f.ShortName;
        return null;
    }

    /// <summary>An async method's box: its state machine's type and address (the box's field for a struct, the object for a class).</summary>
    private static (string Type, ulong Address)? StateMachineOf(ClrObject task)
    {
        try
        {
            if (task.Type?.GetFieldByName(HangNames.StateMachine) is not { Type.Name: { } name } field)
                return null;
            ulong address = field.IsObjectReference ? field.ReadObject(task.Address, interior: false).Address : field.GetAddress(task.Address);
            return address == 0 ? null : (name, address);
        }
        catch (Exception e) when (e is InvalidOperationException or ArgumentException or IOException)
        {
            return null;
        }
    }
}
