using System.Buffers.Binary;

namespace DiagExt.Fuzz.Targets.Wcf;

/// <summary>
/// The wcf target's input: objects of a real core to overlay, each as its address and bytes.
/// Layout: "WCF1", u16 count, then per chunk u64 address, u32 length, the bytes. Decoding is bounded: a
/// length or count past the input ends the list.
/// </summary>
internal static class HeapChunkCodec
{
    public const int MaxChunks = 64;
    public const int MaxChunkBytes = 64 * 1024;
    public const int HeaderSize = 6;
    public const int ChunkHeaderSize = 12;
    private static ReadOnlySpan<byte> Magic => "WCF1"u8;

    public static byte[] Encode(IEnumerable<(ulong Address, byte[] Bytes)> chunks)
    {
        var list = chunks.Take(MaxChunks).ToList();
        var output = new List<byte>(Magic.ToArray());
        output.AddRange(BitConverter.GetBytes((ushort)list.Count));
        foreach (var (address, bytes) in list)
        {
            output.AddRange(BitConverter.GetBytes(address));
            output.AddRange(BitConverter.GetBytes(bytes.Length));
            output.AddRange(bytes);
        }
        return [.. output];
    }

    /// <summary>The chunks with the input offset of each one's first byte.</summary>
    public static IReadOnlyList<(HeapChunk Chunk, int Offset)> Decode(ReadOnlyMemory<byte> input)
    {
        var chunks = new List<(HeapChunk, int)>();
        ReadOnlySpan<byte> span = input.Span;
        if (span.Length < HeaderSize || !span[..4].SequenceEqual(Magic))
            return chunks;
        int count = Math.Min((int)BinaryPrimitives.ReadUInt16LittleEndian(span[4..]), MaxChunks);
        int at = HeaderSize;
        for (int i = 0; i < count && at + ChunkHeaderSize <= span.Length; i++)
        {
            ulong address = BinaryPrimitives.ReadUInt64LittleEndian(span[at..]);
            uint length = BinaryPrimitives.ReadUInt32LittleEndian(span[(at + 8)..]);
            int start = at + ChunkHeaderSize;
            int take = (int)Math.Min(Math.Min(length, (uint)MaxChunkBytes), (uint)(span.Length - start));
            chunks.Add((new HeapChunk(address, input.Slice(start, take)), start));
            at = start + take;
        }
        return chunks;
    }
}
