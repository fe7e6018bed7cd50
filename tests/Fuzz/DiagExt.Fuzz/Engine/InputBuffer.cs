namespace DiagExt.Fuzz.Engine;

/// <summary>The input being mutated: a growable buffer reused across executions, so a large dump is not reallocated each time.</summary>
public sealed class InputBuffer
{
    private byte[] _data = new byte[4096];

    public int Length { get; private set; }

    public Span<byte> Span => _data.AsSpan(0, Length);

    public ReadOnlyMemory<byte> Memory => _data.AsMemory(0, Length);

    public void Load(ReadOnlySpan<byte> source)
    {
        EnsureCapacity(source.Length);
        source.CopyTo(_data);
        Length = source.Length;
    }

    public byte[] ToArray() => Span.ToArray();

    public void Truncate(int length) => Length = Math.Clamp(length, 0, Length);

    public void Insert(int at, ReadOnlySpan<byte> bytes)
    {
        at = Math.Clamp(at, 0, Length);
        byte[] copy = bytes.ToArray(); // the source may be a slice of this buffer
        EnsureCapacity(Length + copy.Length);
        Buffer.BlockCopy(_data, at, _data, at + copy.Length, Length - at);
        copy.CopyTo(_data, at);
        Length += copy.Length;
    }

    public void Delete(int at, int count)
    {
        if (at < 0 || at >= Length)
            return;
        count = Math.Min(count, Length - at);
        Buffer.BlockCopy(_data, at + count, _data, at, Length - at - count);
        Length -= count;
    }

    private void EnsureCapacity(int needed)
    {
        if (needed <= _data.Length)
            return;
        Array.Resize(ref _data, Math.Max(needed, (int)Math.Min(Array.MaxLength, _data.Length * 2L)));
    }
}
