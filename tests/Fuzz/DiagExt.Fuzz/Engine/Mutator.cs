namespace DiagExt.Fuzz.Engine;

/// <summary>
/// Deterministic mutations, stacked one to four at a time: bit flips, byte and word sets, arithmetic, truncation,
/// chunk duplication, deletion, zeroing, dictionary tokens, splicing, and (where the target describes its structure)
/// length, count, offset and pointer fields set to extremes or to point into their own structure.
/// </summary>
public sealed class Mutator(Random rng)
{
    private const int MaxChunk = 4096;

    public void Mutate(InputBuffer input, IReadOnlyList<Field> fields, IReadOnlyList<byte[]> tokens, Func<byte[]>? splicePartner)
    {
        int stack = 1 << rng.Next(3); // 1, 2 or 4 mutations
        for (int i = 0; i < stack; i++)
        {
            // Structure-aware mutations dominate when the target describes its fields: that is where readers trust.
            if (fields.Count > 0 && rng.Next(100) < 45)
                SetField(input, fields[rng.Next(fields.Count)]);
            else
                Generic(input, tokens, splicePartner);
        }
    }

    private void SetField(InputBuffer input, Field field)
    {
        if (field.Offset < 0 || field.Offset + field.Size > input.Length)
            return;
        Span<byte> at = input.Span.Slice(field.Offset, field.Size);
        ulong current = Read(at);
        Write(at, Interesting.ForField(field, current, input.Length, rng));
    }

    private void Generic(InputBuffer input, IReadOnlyList<byte[]> tokens, Func<byte[]>? splicePartner)
    {
        int length = input.Length;
        switch (rng.Next(13))
        {
            case 0 when length > 0:
                input.Span[rng.Next(length)] ^= (byte)(1 << rng.Next(8));
                break;
            case 1 when length > 0:
                input.Span[rng.Next(length)] = rng.Next(2) == 0 ? Interesting.Bytes[rng.Next(Interesting.Bytes.Length)] : (byte)rng.Next(256);
                break;
            case 2:
                SetWord(input);
                break;
            case 3 when length > 0:
                int at = rng.Next(length);
                input.Span[at] = (byte)(input.Span[at] + rng.Next(-16, 17));
                break;
            case 4:
                input.Truncate(TruncationPoint(length));
                break;
            case 5 when length > 0:
                (int from, int count) = Chunk(length);
                input.Insert(rng.Next(length + 1), input.Span.Slice(from, count));
                break;
            case 6 when length > 0:
                (int src, int n) = Chunk(length);
                int dst = rng.Next(length - n + 1);
                input.Span.Slice(src, n).ToArray().CopyTo(input.Span[dst..]);
                break;
            case 7 when length > 0:
                (int del, int dn) = Chunk(length);
                input.Delete(del, dn);
                break;
            case 8 when length > 0:
                (int z, int zn) = Chunk(length);
                input.Span.Slice(z, zn).Fill(rng.Next(4) == 0 ? (byte)0xFF : (byte)0);
                break;
            case 9 when tokens.Count > 0:
                byte[] token = tokens[rng.Next(tokens.Count)];
                if (rng.Next(2) == 0 || length < token.Length)
                    input.Insert(rng.Next(length + 1), token);
                else
                    token.CopyTo(input.Span[rng.Next(length - token.Length + 1)..]);
                break;
            case 10 when splicePartner is not null && length > 0:
                byte[] other = splicePartner();
                int cut = rng.Next(length);
                if (other.Length > cut)
                {
                    input.Truncate(cut);
                    input.Insert(cut, other.AsSpan(cut, Math.Min(other.Length - cut, 1 << 20)));
                }
                break;
            case 11 when length > 0:
                (int r, int rn) = Chunk(length);
                rng.NextBytes(input.Span.Slice(r, rn));
                break;
            default:
                if (length > 0)
                    input.Span[rng.Next(length)] ^= (byte)(1 << rng.Next(8));
                break;
        }
    }

    private void SetWord(InputBuffer input)
    {
        int size = 1 << rng.Next(1, 4); // 2, 4 or 8 bytes
        if (input.Length < size)
            return;
        int at = rng.Next(input.Length - size + 1);
        if (rng.Next(2) == 0)
            at &= ~(size - 1); // aligned, like the fields readers parse
        ulong value = Interesting.Words[rng.Next(Interesting.Words.Length)];
        Write(input.Span.Slice(at, size), rng.Next(3) == 0 ? (ulong)input.Length : value);
    }

    private int TruncationPoint(int length) => rng.Next(4) switch
    {
        0 => rng.Next(Math.Min(length, 64) + 1),
        1 => length - rng.Next(Math.Min(length, 64) + 1),
        _ => rng.Next(length + 1),
    };

    private (int From, int Count) Chunk(int length)
    {
        int max = Math.Min(length, rng.Next(8) == 0 ? length : MaxChunk);
        int count = 1 + rng.Next(max);
        return (rng.Next(length - count + 1), count);
    }

    /// <summary>A little-endian field of 1 to 8 bytes.</summary>
    private static ulong Read(ReadOnlySpan<byte> at)
    {
        ulong value = 0;
        for (int i = Math.Min(at.Length, 8) - 1; i >= 0; i--)
            value = value << 8 | at[i];
        return value;
    }

    private static void Write(Span<byte> at, ulong value)
    {
        for (int i = 0; i < Math.Min(at.Length, 8); i++, value >>= 8)
            at[i] = (byte)value;
    }
}
