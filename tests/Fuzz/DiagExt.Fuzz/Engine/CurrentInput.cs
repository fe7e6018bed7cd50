using System.IO.MemoryMappedFiles;

namespace DiagExt.Fuzz.Engine;

/// <summary>
/// The input in flight, kept in a memory-mapped file: when the worker dies without a chance to say why (a stack
/// overflow, a native fault in the runtime), the kernel still has the bytes and the supervisor saves them.
/// </summary>
public sealed class CurrentInput : IDisposable
{
    public const long Capacity = 512L * 1024 * 1024;

    private readonly MemoryMappedFile _map;
    private readonly MemoryMappedViewAccessor _view;

    public CurrentInput(string path)
    {
        _map = MemoryMappedFile.CreateFromFile(path, FileMode.Create, null, Capacity + 8);
        _view = _map.CreateViewAccessor();
    }

    public void Write(ReadOnlySpan<byte> input)
    {
        int length = (int)Math.Min(input.Length, Capacity);
        _view.Write(0, -1L); // torn while copying: the supervisor then knows the bytes are not whole
        unsafe
        {
            byte* pointer = null;
            _view.SafeMemoryMappedViewHandle.AcquirePointer(ref pointer);
            try
            {
                input[..length].CopyTo(new Span<byte>(pointer + _view.PointerOffset + 8, length));
            }
            finally
            {
                _view.SafeMemoryMappedViewHandle.ReleasePointer();
            }
        }
        _view.Write(0, (long)length);
    }

    /// <summary>The last input a dead worker wrote, or null when it died while writing it.</summary>
    public static byte[]? ReadBack(string path)
    {
        if (!File.Exists(path))
            return null;
        using var file = File.OpenRead(path);
        var header = new byte[8];
        if (file.Read(header) != 8)
            return null;
        long length = BitConverter.ToInt64(header);
        if (length < 0 || length > Capacity)
            return null;
        var data = new byte[length];
        file.ReadExactly(data);
        return data;
    }

    public void Dispose()
    {
        _view.Dispose();
        _map.Dispose();
    }
}
