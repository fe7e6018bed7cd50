using System.Runtime.InteropServices;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Fuzz.Targets.Wcf;

/// <summary>
/// A real core's memory with some ranges replaced by the fuzzer's bytes: ClrMD, the DAC and wcfhang read the
/// mutated objects where the core holds the originals, and everything else (modules, threads, registers) as the
/// core has it. The base reader is shared by every execution and never disposed here.
/// </summary>
internal sealed class OverlayReader(IDataReader inner, IReadOnlyList<HeapChunk> chunks) : IDataReader
{
    public string DisplayName => inner.DisplayName + " (fuzzed objects)";

    public bool IsThreadSafe => false;

    public OSPlatform TargetPlatform => inner.TargetPlatform;

    public Architecture Architecture => inner.Architecture;

    public int ProcessId => inner.ProcessId;

    public int PointerSize => inner.PointerSize;

    public IEnumerable<ModuleInfo> EnumerateModules() => inner.EnumerateModules();

    public bool GetThreadContext(uint threadID, uint contextFlags, Span<byte> context) => inner.GetThreadContext(threadID, contextFlags, context);

    public void FlushCachedData() => inner.FlushCachedData();

    public int Read(ulong address, Span<byte> buffer)
    {
        int read = inner.Read(address, buffer);
        foreach (HeapChunk chunk in chunks)
            read = Math.Max(read, chunk.CopyOver(address, buffer, read));
        return read;
    }

    public bool Read<T>(ulong address, out T value) where T : unmanaged
    {
        Span<byte> bytes = stackalloc byte[System.Runtime.CompilerServices.Unsafe.SizeOf<T>()];
        if (Read(address, bytes) != bytes.Length)
        {
            value = default;
            return false;
        }
        value = System.Runtime.InteropServices.MemoryMarshal.Read<T>(bytes);
        return true;
    }

    public T Read<T>(ulong address) where T : unmanaged => Read(address, out T value) ? value : default;

    public bool ReadPointer(ulong address, out ulong value)
    {
        Span<byte> bytes = stackalloc byte[8];
        int size = PointerSize;
        if (Read(address, bytes[..size]) != size)
        {
            value = 0;
            return false;
        }
        value = size == 8 ? BitConverter.ToUInt64(bytes) : BitConverter.ToUInt32(bytes);
        return true;
    }

    public ulong ReadPointer(ulong address) => ReadPointer(address, out ulong value) ? value : 0;
}

/// <summary>Bytes that replace the target's at <see cref="Address"/>.</summary>
internal sealed record HeapChunk(ulong Address, ReadOnlyMemory<byte> Bytes)
{
    /// <summary>
    /// Copies the part of this chunk that <paramref name="buffer"/> (read at <paramref name="address"/>) covers and
    /// returns how many leading bytes of the buffer are now valid (at least <paramref name="valid"/>).
    /// </summary>
    public int CopyOver(ulong address, Span<byte> buffer, int valid)
    {
        ulong end = Address + (ulong)Bytes.Length;
        ulong bufferEnd = address + (ulong)buffer.Length;
        if (Bytes.Length == 0 || end < Address || bufferEnd < address || Address >= bufferEnd || end <= address)
            return valid;
        ulong from = Math.Max(Address, address), to = Math.Min(end, bufferEnd);
        Bytes.Span.Slice((int)(from - Address), (int)(to - from)).CopyTo(buffer[(int)(from - address)..]);
        // Bytes past what the core had count only when they continue the valid prefix.
        return from - address <= (ulong)valid ? Math.Max(valid, (int)(to - address)) : valid;
    }
}
