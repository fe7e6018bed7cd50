using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// An async method suspended at an await: its state machine box (a task), the state machine's type and its
/// &lt;&gt;1__state (the number of the await it is suspended at, as the C# compiler numbers them).
/// </summary>
internal sealed record AsyncWaiter(ulong Box, ClrType StateMachineType, ClrObject StateMachine, int? State)
{
    /// <summary>"SemaphoreDeadlock.PlaceOrderAsync" from "Hangs.SemaphoreDeadlock+&lt;PlaceOrderAsync&gt;d__7".</summary>
    public string Method
    {
        get
        {
            string name = StateMachineType.Name ?? "?";
            int open = name.LastIndexOf('<'), close = name.LastIndexOf('>');
            int plus = name.LastIndexOf('+', Math.Max(open, 0));
            if (open < 0 || close < open)
                return Targets.TypeNames.Short(name);
            string outer = plus > 0 ? Targets.TypeNames.Short(name[..plus]) : "";
            return $"{outer}{(outer.Length > 0 ? "." : "")}{name[(open + 1)..close]}";
        }
    }

    /// <summary>The awaiting method of a task continuation: the box itself, or a delegate whose target is one; null for anything else.</summary>
    public static AsyncWaiter? FromContinuation(ClrObject continuation)
    {
        for (int depth = 0; depth < 3 && !continuation.IsNull; depth++)
        {
            ClrType? type = continuation.Type;
            if (type is null)
                return null;
            if (type.GetFieldByName(HangNames.StateMachine) is { } field)
            {
                ClrValueType machine = SafeStruct(continuation, field);
                ClrType? machineType = field.Type;
                if (machineType is null)
                    return null;
                int? state = machine.IsValid ? SafeState(machine) : null;
                ClrObject machineObject = field.IsObjectReference ? SafeObject(continuation, field) : default;
                return new AsyncWaiter(continuation.Address, machineType, machineObject, state);
            }
            // An Action continuation (ExecutionContext flowed, ConfigureAwait) points at the box through its target.
            continuation = FieldReader.Object(continuation, HangNames.DelegateTarget);
        }
        return null;
    }

    private static ClrValueType SafeStruct(ClrObject obj, ClrInstanceField field)
    {
        try
        {
            return field.IsValueType ? obj.ReadValueTypeField(field.Name!) : default;
        }
        catch (Exception e) when (e is InvalidOperationException or ArgumentException or IOException)
        {
            return default;
        }
    }

    private static ClrObject SafeObject(ClrObject obj, ClrInstanceField field)
    {
        try
        {
            return field.ReadObject(obj.Address, interior: false);
        }
        catch (Exception e) when (e is InvalidOperationException or ArgumentException or IOException)
        {
            return default;
        }
    }

    private static int? SafeState(ClrValueType machine)
    {
        try
        {
            return machine.Type?.GetFieldByName("<>1__state") is not null ? machine.ReadField<int>("<>1__state") : null;
        }
        catch (Exception e) when (e is InvalidOperationException or ArgumentException or IOException)
        {
            return null;
        }
    }
}
