using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// The task a suspended async method awaits: the m_task of its state machine's awaiter fields ("&lt;&gt;u__N", one per
/// awaiter type; the compiler clears each when the await resumes, so the one still holding a task that has not completed
/// is the await it is suspended at). Null for an await on something else (Task.Yield, a ValueTask source).
/// </summary>
internal static class AwaitedTask
{
    /// <summary>Awaiter fields read per state machine: compiler-made types have one per awaiter type, a handful.</summary>
    private const int MaxAwaiterFields = 64;

    public static ClrObject Of(ClrObject box)
    {
        try
        {
            if (box.Type?.GetFieldByName(HangNames.StateMachine) is not { } field)
                return default;
            if (field.IsObjectReference)
            {
                ClrObject machine = field.ReadObject(box.Address, interior: false);
                return machine.IsNull ? default : Pending(machine.Type, name => machine.ReadValueTypeField(name));
            }
            ClrValueType value = box.ReadValueTypeField(HangNames.StateMachine);
            return value.IsValid ? Pending(value.Type, name => value.ReadValueTypeField(name)) : default;
        }
        catch (Exception e) when (e is InvalidOperationException or ArgumentException or IOException)
        {
            return default;
        }
    }

    private static ClrObject Pending(ClrType? machine, Func<string, ClrValueType> awaiter)
    {
        if (machine is null)
            return default;
        foreach (ClrInstanceField field in machine.Fields.Take(MaxAwaiterFields))
        {
            if (field.Name is not { } name || !name.StartsWith(HangNames.AwaiterFieldPrefix, StringComparison.Ordinal) || !field.IsValueType
                || field.Type?.GetFieldByName(HangNames.AwaiterTask) is null)
                continue;
            ClrValueType value = awaiter(name);
            ClrObject task = value.IsValid ? value.ReadObjectField(HangNames.AwaiterTask) : default;
            if (!task.IsNull && task.IsValid && !TaskState.IsCompleted(task))
                return task;
        }
        return default;
    }
}
