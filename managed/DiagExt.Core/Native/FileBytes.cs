using Microsoft.Win32.SafeHandles;

namespace DiagExt.Core.Native;

/// <summary>
/// A read-only file read at explicit offsets (thread-safe, no shared position). Reads past the end
/// return fewer bytes; they never throw for a short file. The fuzzer uses the in-memory form, so a
/// mutated dump is parsed by exactly the code that parses the file.
/// </summary>
internal sealed class FileBytes : IDisposable
{
    private readonly SafeFileHandle? _handle;
    private readonly ReadOnlyMemory<byte> _bytes;

    public FileBytes(string path)
    {
        Path = path;
        _handle = File.OpenHandle(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
        Length = RandomAccess.GetLength(_handle);
    }

    /// <summary>File contents already in memory, named <paramref name="name"/> in messages.</summary>
    public FileBytes(string name, ReadOnlyMemory<byte> bytes)
    {
        Path = name;
        _bytes = bytes;
        Length = bytes.Length;
    }

    public string Path { get; }

    public long Length { get; }

    /// <summary>Reads up to <paramref name="buffer"/>.Length bytes at <paramref name="offset"/>; returns the count read.</summary>
    public int Read(long offset, Span<byte> buffer)
    {
        if (offset < 0 || offset >= Length || buffer.IsEmpty)
            return 0;
        long available = Length - offset;
        if (buffer.Length > available)
            buffer = buffer[..(int)available];
        if (_handle is null)
        {
            _bytes.Span.Slice((int)offset, buffer.Length).CopyTo(buffer);
            return buffer.Length;
        }
        int total = 0;
        while (total < buffer.Length)
        {
            int n = RandomAccess.Read(_handle, buffer[total..], offset + total);
            if (n <= 0)
                break;
            total += n;
        }
        return total;
    }

    /// <summary>Reads exactly <paramref name="count"/> bytes or returns null.</summary>
    public byte[]? ReadExactly(long offset, int count)
    {
        // A count comes from the file itself: check the file holds it before allocating (a lying size is not 2 GB).
        if (count < 0 || offset < 0 || offset > Length - count)
            return null;
        byte[] data = new byte[count];
        return Read(offset, data) == count ? data : null;
    }

    public void Dispose() => _handle?.Dispose();
}
