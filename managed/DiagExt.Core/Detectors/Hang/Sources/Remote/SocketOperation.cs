using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// A pending async socket operation: the AwaitableSocketAsyncEventArgs behind Socket.ReceiveAsync/SendAsync(Memory)
/// and NetworkStream.ReadAsync/WriteAsync, started (_operating 1, in progress) and awaited (its
/// ManualResetValueTaskSourceCore holds a continuation and has not completed). <see cref="Awaiter"/> is the continuation's
/// state: the state machine box of the async method awaiting it.
/// </summary>
internal sealed record SocketOperation(ClrObject Args, ClrObject Socket, string Direction, ClrObject Awaiter)
{
    private const int InProgress = 1;

    /// <summary>The heap pass keeps these (<see cref="WaitableInterest"/>): two per socket that ever went async.</summary>
    public static bool Wants(string? typeName) => typeName == HangNames.SocketOperation;

    /// <summary>The operation if <paramref name="args"/> is one that is pending; null for a free, completed or unreadable one.</summary>
    public static SocketOperation? Pending(ClrObject args)
    {
        if (args.IsNull || args.Type?.Name != HangNames.SocketOperation)
            return null;
        if (FieldReader.Int(args, HangNames.OperationState) != InProgress)
            return null;
        try
        {
            ClrValueType core = args.ReadValueTypeField(HangNames.OperationCore);
            if (!core.IsValid || core.ReadField<bool>(HangNames.CoreCompleted) || core.ReadObjectField(HangNames.CoreContinuation).IsNull)
                return null;
            string? direction = FieldReader.Int(args, HangNames.OperationKind) switch
            {
                2 => "connect",
                4 or 5 or 6 => "receive",
                7 or 8 or 9 => "send",
                _ => null, // an accept (a server waiting for clients) or a disconnect: no peer to wait on
            };
            ClrObject socket = FieldReader.Object(args, HangNames.OperationOwner);
            return direction is null || socket.IsNull ? null : new SocketOperation(args, socket, direction, core.ReadObjectField(HangNames.CoreState));
        }
        catch (Exception e) when (e is InvalidOperationException or ArgumentException or IOException)
        {
            return null;
        }
    }

    /// <summary>"a socket receive from 127.0.0.1:5432 (Socket 0x..), pending: only the peer or a timeout completes it".</summary>
    public string Describe() =>
        $"a socket {Direction} {(Direction == "send" ? "to" : "from")} {RemotePeer.Of(Socket)?.Endpoint ?? "an unreadable endpoint"} (Socket 0x{Socket.Address:x}), pending: only the peer or a timeout completes it";
}
