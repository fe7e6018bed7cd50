using System.Net;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// The far end of a socket as the dump shows it: "127.0.0.1:5432", "[2001:db8::1]:443" or "db.example:5432", and the
/// receive and send timeouts the socket caches (Unix only: Windows keeps SO_RCVTIMEO in the kernel, null there).
/// </summary>
internal sealed record RemotePeer(ulong Socket, string Endpoint, int? ReceiveTimeoutMs, int? SendTimeoutMs)
{
    /// <summary>Longest host name read from a DnsEndPoint: DNS names stop at 253.</summary>
    private const int MaxHost = 255;

    /// <summary>The peer of <paramref name="socket"/>; null for a listening or accepted (server-side) socket, or one whose endpoint cannot be read.</summary>
    public static RemotePeer? Of(ClrObject socket)
    {
        if (socket.IsNull || socket.Type?.Name != HangNames.Socket)
            return null;
        if (socket.Type.GetFieldByName(HangNames.SocketListening) is { } listening && SafeBool(socket, listening))
            return null;
        // A client's _rightEndPoint is the peer it connected to (_remoteEndPoint, once read, the same); an accepted
        // socket's is its listener's bound endpoint ("127.0.0.1:0") and its _remoteEndPoint the client: the server side
        // of a connection waits for its client, which is no remote server that stopped answering.
        string? remote = Format(FieldReader.Object(socket, HangNames.SocketRemote));
        string? right = Format(FieldReader.Object(socket, HangNames.SocketRight));
        if (remote is not null && right is not null && remote != right && FieldReader.Object(socket, HangNames.SocketRight).Type?.Name == HangNames.IPEndPoint)
            return null;
        if ((remote ?? right) is not { } text)
            return null;
        ClrObject handle = FieldReader.Object(socket, HangNames.SocketHandle);
        return new RemotePeer(socket.Address, text, FieldReader.Int(handle, HangNames.HandleReceiveTimeout), FieldReader.Int(handle, HangNames.HandleSendTimeout));
    }

    /// <summary>An IPEndPoint or DnsEndPoint as the user would write it; null for anything else.</summary>
    public static string? Format(ClrObject endpoint)
    {
        string? type = endpoint.Type?.Name;
        if (type == HangNames.IPEndPoint)
        {
            int? port = FieldReader.Int(endpoint, HangNames.EndPointPort);
            string? address = Address(FieldReader.Object(endpoint, HangNames.EndPointAddress));
            return address is null || port is not (>= 0 and <= 65535) ? null : address.Contains(':') ? $"[{address}]:{port}" : $"{address}:{port}";
        }
        if (type == HangNames.DnsEndPoint)
        {
            ClrObject host = FieldReader.Object(endpoint, HangNames.DnsHost);
            int? port = FieldReader.Int(endpoint, HangNames.DnsPort);
            string? name = host.Type?.IsString == true ? host.AsString(MaxHost) : null;
            return name is null || port is not (>= 0 and <= 65535) ? null : $"{name}:{port}";
        }
        return null;
    }

    /// <summary>
    /// An IPAddress: IPv4 from its one number (first octet in the lowest byte), IPv6 from its eight groups; an
    /// IPv4-mapped IPv6 address (a dual-mode socket's, as HttpClient opens) is written as the IPv4 address it maps.
    /// </summary>
    private static string? Address(ClrObject address)
    {
        if (address.IsNull)
            return null;
        ClrObject numbers = FieldReader.Object(address, HangNames.AddressNumbers);
        if (numbers.IsNull)
        {
            uint? v4 = FieldReader.UInt(address, HangNames.AddressV4);
            return v4 is uint v ? $"{v & 0xff}.{(v >> 8) & 0xff}.{(v >> 16) & 0xff}.{v >> 24}" : null;
        }
        if (!numbers.IsArray)
            return null;
        ClrArray array = numbers.AsArray();
        if (array.Length != 8 || array.ReadValues<ushort>(0, 8) is not { Length: 8 } groups)
            return null;
        if (groups[..5].All(g => g == 0) && groups[5] == 0xffff)
            return $"{groups[6] >> 8}.{groups[6] & 0xff}.{groups[7] >> 8}.{groups[7] & 0xff}";
        byte[] bytes = new byte[16];
        for (int i = 0; i < 8; i++)
        {
            bytes[2 * i] = (byte)(groups[i] >> 8);
            bytes[2 * i + 1] = (byte)groups[i];
        }
        return new IPAddress(bytes).ToString();
    }

    private static bool SafeBool(ClrObject obj, ClrInstanceField field)
    {
        try
        {
            return field.Read<bool>(obj.Address, interior: false);
        }
        catch (Exception e) when (e is InvalidOperationException or ArgumentException or IOException)
        {
            return false;
        }
    }
}
