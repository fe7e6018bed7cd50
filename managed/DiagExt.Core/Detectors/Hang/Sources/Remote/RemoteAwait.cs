using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// What an async method suspended on a ValueTask awaits (<see cref="WaitFollower"/>'s hook for the awaits
/// <see cref="AwaitedTask"/> does not follow): the ValueTask awaiter field's _value._obj is a task (an async ValueTask
/// method's box: follow on) or an IValueTaskSource; of those, a pending socket operation ends the chain at the peer
/// (HttpConnection.InitialFillAsync awaits NetworkStream.ReadAsync this way); a pooled async ValueTask method's box
/// (PoolingAsyncValueTaskMethodBuilder: no task, Npgsql's read path) is followed on like a task.
/// </summary>
internal static class RemoteAwait
{
    /// <summary>Awaiter fields read per state machine, as <see cref="AwaitedTask"/>.</summary>
    private const int MaxAwaiterFields = 64;

    /// <summary>The next task to follow, or the pending socket operation awaited; null when the box awaits neither.</summary>
    public static (ClrObject Next, SocketOperation? Operation)? Of(ClrObject box)
    {
        try
        {
            if (box.Type?.GetFieldByName(HangNames.StateMachine) is not { } field)
                return null;
            ClrValueType machine = field.IsObjectReference ? default : box.ReadValueTypeField(HangNames.StateMachine);
            ClrObject boxed = field.IsObjectReference ? field.ReadObject(box.Address, interior: false) : default;
            ClrType? type = field.IsObjectReference ? boxed.Type : machine.Type;
            if (type is null || (!field.IsObjectReference && !machine.IsValid) || (field.IsObjectReference && boxed.IsNull))
                return null;
            foreach (ClrInstanceField awaiter in type.Fields.Take(MaxAwaiterFields))
            {
                if (awaiter.Name is not { } name || !name.StartsWith(HangNames.AwaiterFieldPrefix, StringComparison.Ordinal) || !awaiter.IsValueType
                    || awaiter.Type?.GetFieldByName(HangNames.ValueTaskValue) is null)
                    continue;
                ClrValueType value = field.IsObjectReference ? boxed.ReadValueTypeField(name) : machine.ReadValueTypeField(name);
                ClrValueType valueTask = value.IsValid ? value.ReadValueTypeField(HangNames.ValueTaskValue) : default;
                ClrObject source = valueTask.IsValid && valueTask.Type?.GetFieldByName(HangNames.ValueTaskObject) is not null
                    ? valueTask.ReadObjectField(HangNames.ValueTaskObject) : default;
                if (source.IsNull || source.Type is not { } sourceType)
                    continue;
                if (WaitTargets.IsTask(sourceType))
                {
                    if (!TaskState.IsCompleted(source))
                        return (source, null);
                }
                else if (SocketOperation.Pending(source) is { } operation)
                    return (default, operation);
                else if (sourceType.GetFieldByName(HangNames.StateMachine) is not null && !PooledCompleted(source))
                    return (source, null); // a pooled async ValueTask method's box: follow on through its own awaits
            }
            return null;
        }
        catch (Exception e) when (e is InvalidOperationException or ArgumentException or IOException)
        {
            return null;
        }
    }

    /// <summary>The continuation state of a pooled box's ManualResetValueTaskSourceCore: the box of the method awaiting it.</summary>
    public static ClrObject PooledAwaiter(ClrObject box)
    {
        try
        {
            ClrValueType core = box.Type?.GetFieldByName(HangNames.PooledSource) is { IsValueType: true } ? box.ReadValueTypeField(HangNames.PooledSource) : default;
            return core.IsValid ? core.ReadObjectField(HangNames.CoreState) : default;
        }
        catch (Exception e) when (e is InvalidOperationException or ArgumentException or IOException)
        {
            return default;
        }
    }

    private static bool PooledCompleted(ClrObject box)
    {
        ClrValueType core = box.Type?.GetFieldByName(HangNames.PooledSource) is { IsValueType: true } ? box.ReadValueTypeField(HangNames.PooledSource) : default;
        return core.IsValid && core.ReadField<bool>(HangNames.CoreCompleted);
    }
}
