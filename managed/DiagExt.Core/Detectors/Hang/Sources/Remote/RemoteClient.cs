using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// Who waits on a peer and with what timeout: the client library named by the types of a blocked thread's frames or of
/// the async methods awaiting a pending operation (walked up its continuations), and the timeout read where the client
/// keeps it: a sync call's socket timeout (SO_RCVTIMEO/SO_SNDTIMEO, cached by the socket on Unix; Npgsql sets it from
/// its Timeout and CommandTimeout), an HttpClient's Timeout for an async request. An async operation's socket timeout
/// does not apply to it (the OS applies SO_RCVTIMEO to blocking calls only), so without a known client it is unknown.
/// </summary>
internal sealed record RemoteClient(string? Library, RemoteTimeout Timeout)
{
    /// <summary>Continuations walked up from a pending operation: async call chains are tens deep.</summary>
    public const int MaxSteps = 128;

    /// <summary>Frames read for a library name: a sync call's library sits within a few tens of frames of the socket.</summary>
    private const int MaxFrames = 200;

    /// <summary>Type name prefixes of the client libraries named; the first that matches names the client.</summary>
    private static readonly (string Prefix, string Name)[] Libraries =
    [
        ("Npgsql.", "Npgsql"), ("StackExchange.Redis.", "StackExchange.Redis"), ("MySqlConnector.", "MySqlConnector"), ("MySql.Data.", "MySql.Data"),
        ("Microsoft.Data.SqlClient.", "Microsoft.Data.SqlClient"), ("System.Data.SqlClient.", "System.Data.SqlClient"), ("MongoDB.Driver.", "MongoDB.Driver"),
        ("RabbitMQ.Client.", "RabbitMQ.Client"), ("Confluent.Kafka.", "Confluent.Kafka"), ("Grpc.", "gRPC"), ("System.ServiceModel.", "WCF"),
        ("System.Net.Http.", "HttpClient"),
    ];

    /// <summary>A thread in a sync socket call: the library from its frames, the timeout from the socket for the call's direction.</summary>
    public static RemoteClient OfThread(TargetThread thread, RemotePeer? peer, string direction)
    {
        string? library = null;
        foreach (ManagedFrame frame in thread.Frames.Take(MaxFrames))
        {
            if (LibraryOf(frame.TypeName) is not { } name)
                continue;
            library = Better(library, name);
            if (library != "HttpClient")
                break;
        }
        int? ms = direction == "receive" ? peer?.ReceiveTimeoutMs : direction == "send" ? peer?.SendTimeoutMs : null;
        RemoteTimeout timeout = direction == "connect" ? RemoteTimeout.Os
            : ms is int t ? (t <= 0 ? RemoteTimeout.None($"the socket's {direction} timeout") : RemoteTimeout.After(TimeSpan.FromMilliseconds(t), $"the socket's {direction} timeout"))
            : RemoteTimeout.Unknown($"the socket's {direction} timeout is not in the dump (Windows keeps it in the kernel)");
        return new RemoteClient(library, timeout);
    }

    /// <summary>An async operation: walks up from the method awaiting it through each box's continuation, reading each method and its this.</summary>
    public static RemoteClient OfOperation(SocketOperation operation)
    {
        string? library = null;
        RemoteTimeout? timeout = null;
        var seen = new HashSet<ulong>();
        ClrObject box = operation.Awaiter;
        for (int n = 0; n < MaxSteps && !box.IsNull && seen.Add(box.Address); n++)
        {
            if (box.Type?.GetFieldByName(HangNames.StateMachine) is null)
                break;
            AsyncWaiter? method = AsyncWaiter.FromContinuation(box);
            if (LibraryOf(method?.StateMachineType.Name) is { } name)
                library = Better(library, name);
            ClrObject self = This(box);
            if (LibraryOf(self.Type?.Name) is { } selfName)
                library = Better(library, selfName);
            if (self.Type?.Name == HangNames.HttpClient && HttpClientTimeout(self) is { } http)
                timeout = http;
            timeout ??= NpgsqlTimeout(box);
            ClrObject continuation = FieldReader.Object(box, HangNames.ContinuationObject);
            box = continuation.IsNull ? RemoteAwait.PooledAwaiter(box) : Next(continuation);
        }
        return new RemoteClient(library, timeout ?? RemoteTimeout.Unknown("no client timeout found on the awaiting methods (a CancellationToken may still end it)"));
    }

    /// <summary>A third-party library wins over HttpClient (which many of them use underneath).</summary>
    private static string Better(string? current, string found) => current is null || current == "HttpClient" ? found : current;

    private static string? LibraryOf(string? typeName)
    {
        if (typeName is null)
            return null;
        foreach ((string prefix, string name) in Libraries)
            if (typeName.StartsWith(prefix, StringComparison.Ordinal))
                return name;
        return null;
    }

    /// <summary>The box a continuation resumes: the box itself, or an Action whose target is one (ExecutionContext flowed).</summary>
    private static ClrObject Next(ClrObject continuation)
    {
        if (continuation.IsNull || continuation.Type is null)
            return default;
        if (continuation.Type.GetFieldByName(HangNames.StateMachine) is not null)
            return continuation;
        ClrObject target = FieldReader.Object(continuation, HangNames.DelegateTarget);
        return target.Type?.GetFieldByName(HangNames.StateMachine) is not null ? target : default;
    }

    /// <summary>The &lt;&gt;4__this of the box's state machine: the object whose async method it is.</summary>
    private static ClrObject This(ClrObject box)
    {
        try
        {
            ClrInstanceField field = box.Type!.GetFieldByName(HangNames.StateMachine)!;
            if (field.IsObjectReference)
            {
                ClrObject machine = field.ReadObject(box.Address, interior: false);
                return machine.IsNull ? default : FieldReader.Object(machine, HangNames.StateMachineThis);
            }
            ClrValueType value = box.ReadValueTypeField(HangNames.StateMachine);
            return value.IsValid && value.Type?.GetFieldByName(HangNames.StateMachineThis) is { IsObjectReference: true } ? value.ReadObjectField(HangNames.StateMachineThis) : default;
        }
        catch (Exception e) when (e is InvalidOperationException or ArgumentException or IOException)
        {
            return default;
        }
    }

    /// <summary>Fields of a state machine looked at for a client's own objects: a method's locals and arguments, a handful.</summary>
    private const int MaxMachineFields = 64;

    /// <summary>Npgsql's read timeout, from an NpgsqlReadBuffer a state machine of the chain holds (its this or an argument).</summary>
    private static RemoteTimeout? NpgsqlTimeout(ClrObject box)
    {
        try
        {
            ClrValueType machine = box.Type?.GetFieldByName(HangNames.StateMachine) is { IsValueType: true } ? box.ReadValueTypeField(HangNames.StateMachine) : default;
            if (!machine.IsValid || machine.Type is null)
                return null;
            foreach (ClrInstanceField field in machine.Type.Fields.Take(MaxMachineFields))
            {
                if (!field.IsObjectReference || field.Type?.Name != HangNames.NpgsqlReadBuffer || field.Name is null)
                    continue;
                ClrObject buffer = machine.ReadObjectField(field.Name);
                if (buffer.IsNull)
                    continue;
                ClrObject cts = FieldReader.Object(buffer, HangNames.NpgsqlReadCts);
                if (cts.IsNull || cts.Type?.GetFieldByName(HangNames.NpgsqlCtsTimeout) is null)
                    continue;
                ClrValueType span = cts.ReadValueTypeField(HangNames.NpgsqlCtsTimeout);
                if (!span.IsValid)
                    continue;
                long ticks = span.ReadField<long>(HangNames.TimeSpanTicks);
                return ticks <= 0 ? RemoteTimeout.None("Npgsql's read timeout (NpgsqlReadBuffer.Timeout, from Timeout or CommandTimeout)")
                    : RemoteTimeout.After(TimeSpan.FromTicks(ticks), "Npgsql's read timeout (NpgsqlReadBuffer.Timeout, from Timeout or CommandTimeout)");
            }
            return null;
        }
        catch (Exception e) when (e is InvalidOperationException or ArgumentException or IOException)
        {
            return null;
        }
    }

    /// <summary>HttpClient.Timeout (_timeout): Timeout.InfiniteTimeSpan (-1 ms) means none.</summary>
    private static RemoteTimeout? HttpClientTimeout(ClrObject client)
    {
        try
        {
            ClrValueType span = client.ReadValueTypeField(HangNames.HttpClientTimeout);
            if (!span.IsValid)
                return null;
            long ticks = span.ReadField<long>(HangNames.TimeSpanTicks);
            return ticks < 0 || ticks == TimeSpan.MaxValue.Ticks ? RemoteTimeout.None("HttpClient.Timeout") : RemoteTimeout.After(TimeSpan.FromTicks(ticks), "HttpClient.Timeout");
        }
        catch (Exception e) when (e is InvalidOperationException or ArgumentException or IOException)
        {
            return null;
        }
    }
}

/// <summary>A client's timeout as read: none (only the peer ends the wait), a value, the OS's own (a connect), or not readable.</summary>
internal sealed record RemoteTimeout(RemoteTimeout.Kinds Kind, TimeSpan? Value, string Source)
{
    public enum Kinds { None, Value, Os, Unknown }

    public static RemoteTimeout None(string source) => new(Kinds.None, null, source);

    public static RemoteTimeout After(TimeSpan value, string source) => new(Kinds.Value, value, source);

    public static RemoteTimeout Os { get; } = new(Kinds.Os, null, "a blocking connect ends at the OS's own limit, on Linux about 2 minutes of SYN retries");

    public static RemoteTimeout Unknown(string why) => new(Kinds.Unknown, null, why);

    /// <summary>"no timeout (HttpClient.Timeout is infinite)", "timeout 100 s (HttpClient.Timeout)", "timeout unknown (...)".</summary>
    public string Text => Kind switch
    {
        Kinds.None => $"no timeout ({Source} is infinite)",
        Kinds.Value => $"timeout {Seconds(Value!.Value)} ({Source})",
        Kinds.Os => $"the OS's connect timeout ({Source})",
        _ => $"timeout unknown ({Source})",
    };

    /// <summary>"100 s", "1.5 s".</summary>
    public static string Seconds(TimeSpan value) => $"{value.TotalSeconds.ToString("0.###", System.Globalization.CultureInfo.InvariantCulture)} s";
}
