// A tiny net.tcp server for the WcfHang client. No WCF server library (CoreWCF) is served here, so this speaks just
// enough of the .NET Message Framing protocol ([MC-NMF]) for a ChannelFactory over NetTcpBinding(SecurityMode.None):
// the duplex preamble, then sized envelopes both ways, encoded with the WCF package's own binary session encoder.
// It is test infrastructure, deliberately small: one request at a time per connection, no security, no faults.

using System.Net;
using System.Net.Sockets;
using System.ServiceModel.Channels;
using System.Xml;

/// <summary>What to answer to one operation: the result's text (null for a void operation), after a delay.</summary>
sealed record OperationReply(string? Result, TimeSpan Delay);

sealed class NetTcpResponder(Func<string, OperationReply> answer)
{
    readonly TcpListener listener = new(IPAddress.Loopback, 0);

    /// <summary>Starts listening and returns the port.</summary>
    public int Start()
    {
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }

    /// <summary>Serves connections until the process ends.</summary>
    public async Task ServeAsync()
    {
        while (true)
        {
            TcpClient client = await listener.AcceptTcpClientAsync();
            _ = ServeConnectionAsync(client);
        }
    }

    async Task ServeConnectionAsync(TcpClient client)
    {
        try
        {
            using (client)
            {
                client.NoDelay = true;
                await new Connection(client.GetStream(), answer).RunAsync();
            }
        }
        catch (Exception e)
        {
            // Clients are killed mid-session by design; one line, and the server goes on.
            Console.Error.WriteLine($"WcfHang server: connection ended: {e.GetType().Name}: {e.Message.ReplaceLineEndings(" ")}");
        }
    }

    /// <summary>One client session. The session encoder keeps a string dictionary per direction, so one instance
    /// decodes this connection's requests and encodes its replies.</summary>
    sealed class Connection(NetworkStream network, Func<string, OperationReply> answer)
    {
        const int MaxEnvelope = 1 << 20, MaxVia = 4 << 10;

        // Record types and values of the framing protocol.
        const byte VersionRecord = 0x00, ModeRecord = 0x01, ViaRecord = 0x02, KnownEncodingRecord = 0x03;
        const byte SizedEnvelopeRecord = 0x06, EndRecord = 0x07, PreambleAckRecord = 0x0B, PreambleEndRecord = 0x0C;
        const byte DuplexMode = 0x02, BinarySessionEncoding = 0x08;

        readonly Stream input = new BufferedStream(network); // reads only: records are read a byte at a time
        readonly byte[] oneByte = new byte[1];
        readonly MessageEncoder encoder = new BinaryMessageEncodingBindingElement().CreateMessageEncoderFactory().CreateSessionEncoder();
        readonly BufferManager buffers = BufferManager.CreateBufferManager(4 * MaxEnvelope, MaxEnvelope);

        public async Task RunAsync()
        {
            await ReadPreambleAsync();
            await network.WriteAsync(new[] { PreambleAckRecord });
            while (true)
            {
                byte record = await ReadByteAsync();
                if (record == EndRecord)
                {
                    await network.WriteAsync(new[] { EndRecord });
                    return;
                }
                if (record != SizedEnvelopeRecord)
                    throw new InvalidDataException($"unexpected record 0x{record:X2}");
                await AnswerAsync(await ReadEnvelopeAsync());
            }
        }

        async Task ReadPreambleAsync()
        {
            while (true)
            {
                byte record = await ReadByteAsync();
                switch (record)
                {
                    case VersionRecord:
                        await ReadByteAsync(); // major
                        await ReadByteAsync(); // minor
                        break;
                    case ModeRecord:
                        Expect(await ReadByteAsync() == DuplexMode, "only the duplex mode is served");
                        break;
                    case ViaRecord:
                        await input.ReadExactlyAsync(new byte[await ReadSizeAsync(MaxVia)]);
                        break;
                    case KnownEncodingRecord:
                        Expect(await ReadByteAsync() == BinarySessionEncoding, "only the binary session encoding is served");
                        break;
                    case PreambleEndRecord:
                        return;
                    default:
                        throw new InvalidDataException($"unexpected preamble record 0x{record:X2}");
                }
            }
        }

        async Task<Message> ReadEnvelopeAsync()
        {
            int size = await ReadSizeAsync(MaxEnvelope);
            byte[] buffer = buffers.TakeBuffer(size);
            await input.ReadExactlyAsync(buffer.AsMemory(0, size));
            return encoder.ReadMessage(new ArraySegment<byte>(buffer, 0, size), buffers); // the message returns the buffer
        }

        /// <summary>Replies as a WCF service would: Action + "Response", RelatesTo the request, the wrapped result.</summary>
        async Task AnswerAsync(Message request)
        {
            using (request)
            {
                XmlDictionaryReader body = request.GetReaderAtBodyContents();
                string operation = body.LocalName, contractNamespace = body.NamespaceURI;
                OperationReply reply = answer(operation);
                // The tests' ground truth: which message ids the client sent.
                Console.WriteLine($"request {request.Headers.Action} {request.Headers.MessageId}");
                await Task.Delay(reply.Delay);

                using Message response = Message.CreateMessage(request.Version, request.Headers.Action + "Response",
                    new ResponseBody(operation, contractNamespace, reply.Result));
                response.Headers.RelatesTo = request.Headers.MessageId;
                ArraySegment<byte> bytes = encoder.WriteMessage(response, MaxEnvelope, buffers);
                try
                {
                    await network.WriteAsync(EnvelopeHeader(bytes.Count));
                    await network.WriteAsync(bytes.AsMemory());
                }
                finally
                {
                    buffers.ReturnBuffer(bytes.Array!);
                }
            }
        }

        static byte[] EnvelopeHeader(int size)
        {
            var header = new List<byte> { SizedEnvelopeRecord };
            for (uint rest = (uint)size; ; rest >>= 7)
            {
                if (rest < 0x80)
                {
                    header.Add((byte)rest);
                    return [.. header];
                }
                header.Add((byte)(rest | 0x80));
            }
        }

        /// <summary>A size in the protocol's varint: 7 bits a byte, low first, at most 5 bytes.</summary>
        async Task<int> ReadSizeAsync(int max)
        {
            long value = 0;
            for (int shift = 0; shift < 35; shift += 7)
            {
                byte b = await ReadByteAsync();
                value |= (long)(b & 0x7F) << shift;
                if (b < 0x80)
                {
                    Expect(value <= max, $"size {value} over the limit {max}");
                    return (int)value;
                }
            }
            throw new InvalidDataException("size longer than 5 bytes");
        }

        async Task<byte> ReadByteAsync()
        {
            await input.ReadExactlyAsync(oneByte);
            return oneByte[0];
        }

        static void Expect(bool condition, string message)
        {
            if (!condition)
                throw new InvalidDataException(message);
        }
    }

    /// <summary>The body a WCF service writes: &lt;OpResponse&gt; with &lt;OpResult&gt; unless the operation is void.</summary>
    sealed class ResponseBody(string operation, string contractNamespace, string? result) : BodyWriter(isBuffered: true)
    {
        protected override void OnWriteBodyContents(XmlDictionaryWriter writer)
        {
            writer.WriteStartElement(operation + "Response", contractNamespace);
            if (result is not null)
                writer.WriteElementString(operation + "Result", contractNamespace, result);
            writer.WriteEndElement();
        }
    }
}
