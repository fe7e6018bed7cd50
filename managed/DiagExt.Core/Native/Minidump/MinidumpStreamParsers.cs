using System.Text;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Native.Minidump;

/// <summary>
/// Parsers for the streams DiagExt uses. Each takes the stream's bytes (already bounded by the directory's
/// size) and returns what it can prove; a count that does not fit the stream is an error naming the file.
/// </summary>
internal static class MinidumpStreamParsers
{
    public static List<MinidumpThread> Threads(string path, ReadOnlySpan<byte> s, Limits limits)
    {
        uint count = Count32(path, "thread list", s, MinidumpThread.Size, 4, limits.MaxThreads);
        var result = new List<MinidumpThread>((int)count);
        for (int i = 0; i < count; i++)
        {
            var e = s.Slice(4 + i * MinidumpThread.Size, MinidumpThread.Size);
            result.Add(new MinidumpThread(
                ThreadId: BinaryReads.U32(e, 0),
                Teb: BinaryReads.U64(e, 16),
                StackStart: BinaryReads.U64(e, 24),
                StackSize: BinaryReads.U32(e, 32),
                StackRva: BinaryReads.U32(e, 36),
                ContextSize: BinaryReads.U32(e, 40),
                ContextRva: BinaryReads.U32(e, 44)));
        }
        return result;
    }

    public static List<MinidumpThreadInfo> ThreadInfos(string path, ReadOnlySpan<byte> s, Limits limits)
    {
        if (!BinaryReads.TryU32(s, 0, out uint headerSize) || !BinaryReads.TryU32(s, 4, out uint entrySize) || !BinaryReads.TryU32(s, 8, out uint count))
            throw new InvalidDataException($"{path}: thread info list stream is shorter than its header.");
        if (entrySize < MinidumpThreadInfo.MinimumEntrySize || headerSize < 12 || headerSize > s.Length)
            throw new InvalidDataException($"{path}: thread info list has header size {headerSize} and entry size {entrySize}, which is not a MINIDUMP_THREAD_INFO list.");
        CheckCount(path, "thread info list", count, limits.MaxThreads, entrySize, s.Length - (long)headerSize);

        var result = new List<MinidumpThreadInfo>((int)count);
        for (int i = 0; i < count; i++)
        {
            var e = s.Slice((int)(headerSize + (long)i * entrySize), (int)entrySize);
            result.Add(new MinidumpThreadInfo(
                ThreadId: BinaryReads.U32(e, 0),
                DumpFlags: BinaryReads.U32(e, 4),
                CreateTime: BinaryReads.U64(e, 16),
                ExitTime: BinaryReads.U64(e, 24),
                KernelTime: BinaryReads.U64(e, 32),
                UserTime: BinaryReads.U64(e, 40),
                StartAddress: BinaryReads.U64(e, 48)));
        }
        return result;
    }

    /// <summary>A handle count beyond any process's (Windows allows ~16M per process, dumps hold thousands).</summary>
    private const int MaxHandles = 1024 * 1024;

    /// <summary>Object records chained to one handle: Windows writes one or two.</summary>
    private const int MaxObjectInfosPerHandle = 8;

    /// <summary>Bytes of one object record kept: the known ones are under 100.</summary>
    private const int MaxObjectInfoBytes = 4096;

    /// <summary>MINIDUMP_HANDLE_DATA_STREAM: descriptors of 32 bytes (type and object names) or 40 (plus object records).</summary>
    public static List<MinidumpHandle> Handles(FileBytes file, ReadOnlySpan<byte> s, Limits limits)
    {
        if (!BinaryReads.TryU32(s, 0, out uint headerSize) || !BinaryReads.TryU32(s, 4, out uint entrySize) || !BinaryReads.TryU32(s, 8, out uint count))
            throw new InvalidDataException($"{file.Path}: handle data stream is shorter than its header.");
        if (headerSize < 16 || headerSize > s.Length || entrySize < 32)
            throw new InvalidDataException($"{file.Path}: handle data stream has header size {headerSize} and descriptor size {entrySize}, which is not a MINIDUMP_HANDLE_DATA_STREAM.");
        CheckCount(file.Path, "handle data", count, MaxHandles, entrySize, s.Length - (long)headerSize);

        var result = new List<MinidumpHandle>((int)count);
        for (int i = 0; i < count; i++)
        {
            var e = s.Slice((int)(headerSize + (long)i * entrySize), (int)entrySize);
            uint objectInfo = entrySize >= 40 ? BinaryReads.U32(e, 32) : 0;
            result.Add(new MinidumpHandle(
                Value: BinaryReads.U64(e, 0),
                TypeName: OptionalString(file, BinaryReads.U32(e, 8), limits),
                ObjectName: OptionalString(file, BinaryReads.U32(e, 12), limits),
                ObjectInfo: ObjectInfos(file, objectInfo)));
        }
        return result;
    }

    /// <summary>The chain of MINIDUMP_HANDLE_OBJECT_INFORMATION records from <paramref name="rva"/> (0: none), bounded and loop-free.</summary>
    private static List<MinidumpHandleObjectInfo> ObjectInfos(FileBytes file, uint rva)
    {
        var infos = new List<MinidumpHandleObjectInfo>();
        var seen = new HashSet<uint>();
        while (rva != 0 && infos.Count < MaxObjectInfosPerHandle && seen.Add(rva))
        {
            if (file.ReadExactly(rva, 12) is not { } header)
                break;
            uint size = BinaryReads.U32(header, 8);
            if (size > MaxObjectInfoBytes || file.ReadExactly(rva + 12L, (int)size) is not { } data)
                break;
            infos.Add(new MinidumpHandleObjectInfo(BinaryReads.U32(header, 4), data));
            rva = BinaryReads.U32(header, 0);
        }
        return infos;
    }

    private static string? OptionalString(FileBytes file, uint rva, Limits limits) =>
        rva == 0 ? null : ReadString(file, rva, limits) is { Length: > 0 } s ? s : null;

    public static List<MinidumpModule> Modules(FileBytes file, ReadOnlySpan<byte> s, Limits limits)
    {
        uint count = Count32(file.Path, "module list", s, MinidumpModule.Size, 4, limits.MaxThreads);
        var result = new List<MinidumpModule>((int)count);
        for (int i = 0; i < count; i++)
        {
            var e = s.Slice(4 + i * MinidumpModule.Size, MinidumpModule.Size);
            Version? version = null;
            if (BinaryReads.U32(e, 24) == 0xFEEF04BD)
            {
                uint ms = BinaryReads.U32(e, 32), ls = BinaryReads.U32(e, 36);
                version = new Version((int)(ms >> 16), (int)(ms & 0xFFFF), (int)(ls >> 16), (int)(ls & 0xFFFF));
            }
            result.Add(new MinidumpModule(
                BaseOfImage: BinaryReads.U64(e, 0),
                SizeOfImage: BinaryReads.U32(e, 8),
                TimeDateStamp: BinaryReads.U32(e, 16),
                Name: ReadString(file, BinaryReads.U32(e, 20), limits) ?? $"module@{BinaryReads.U64(e, 0):x}",
                FileVersion: version));
        }
        return result;
    }

    public static List<MinidumpMemoryRange> MemoryList(string path, ReadOnlySpan<byte> s, Limits limits)
    {
        uint count = Count32(path, "memory list", s, 16, 4, limits.MaxMinidumpMemoryRanges);
        var result = new List<MinidumpMemoryRange>((int)count);
        for (int i = 0; i < count; i++)
        {
            var e = s.Slice(4 + i * 16, 16);
            result.Add(new MinidumpMemoryRange(BinaryReads.U64(e, 0), BinaryReads.U32(e, 8), BinaryReads.U32(e, 12)));
        }
        return result;
    }

    public static List<MinidumpMemoryRange> Memory64List(string path, ReadOnlySpan<byte> s, Limits limits)
    {
        if (!BinaryReads.TryU64(s, 0, out ulong count) || !BinaryReads.TryU64(s, 8, out ulong baseRva))
            throw new InvalidDataException($"{path}: memory64 list stream is shorter than its header.");
        CheckCount(path, "memory64 list", count, limits.MaxMinidumpMemoryRanges, 16, s.Length - 16L);

        var result = new List<MinidumpMemoryRange>((int)count);
        ulong offset = baseRva;
        for (int i = 0; i < (int)count; i++)
        {
            var e = s.Slice(16 + i * 16, 16);
            ulong size = BinaryReads.U64(e, 8);
            if (offset > long.MaxValue || size > long.MaxValue - offset)
                throw new InvalidDataException($"{path}: memory64 range {i} has size 0x{size:x} at file offset 0x{offset:x}, beyond any file.");
            result.Add(new MinidumpMemoryRange(BinaryReads.U64(e, 0), size, (long)offset));
            offset += size;
        }
        return result;
    }

    public static MinidumpSystemInfo? SystemInfo(ReadOnlySpan<byte> s)
    {
        if (s.Length < 24)
            return null;
        return new MinidumpSystemInfo(BinaryReads.U16(s, 0), BinaryReads.U32(s, 8), BinaryReads.U32(s, 12), BinaryReads.U32(s, 16), s[6]);
    }

    public static MinidumpMiscInfo? MiscInfo(ReadOnlySpan<byte> s)
    {
        if (s.Length < 24)
            return null;
        uint flags = BinaryReads.U32(s, 4);
        bool hasPid = (flags & 1) != 0, hasTimes = (flags & 2) != 0;
        return new MinidumpMiscInfo(
            hasPid ? BinaryReads.U32(s, 8) : null,
            hasTimes ? DateTime.UnixEpoch.AddSeconds(BinaryReads.U32(s, 12)) : null,
            hasTimes ? TimeSpan.FromSeconds(BinaryReads.U32(s, 16)) : null,
            hasTimes ? TimeSpan.FromSeconds(BinaryReads.U32(s, 20)) : null);
    }

    /// <summary>Reads a MINIDUMP_STRING (u32 byte length, then UTF-16) at an RVA, cut at the string limit.</summary>
    public static string? ReadString(FileBytes file, uint rva, Limits limits)
    {
        Span<byte> lengthBytes = stackalloc byte[4];
        if (file.Read(rva, lengthBytes) != 4)
            return null;
        uint length = BinaryReads.U32(lengthBytes, 0);
        int bytes = (int)Math.Min(length, (uint)limits.MaxStringLength * 2) & ~1;
        byte[]? data = file.ReadExactly(rva + 4L, bytes);
        return data is null ? null : Encoding.Unicode.GetString(data);
    }

    private static uint Count32(string path, string what, ReadOnlySpan<byte> s, int entrySize, int headerSize, int limit)
    {
        if (!BinaryReads.TryU32(s, 0, out uint count))
            throw new InvalidDataException($"{path}: {what} stream is shorter than its header.");
        CheckCount(path, what, count, limit, (uint)entrySize, s.Length - (long)headerSize);
        return count;
    }

    private static void CheckCount(string path, string what, ulong count, int limit, uint entrySize, long available)
    {
        if (count > (ulong)limit)
            throw new InvalidDataException($"{path}: {what} claims {count} entries; the limit is {limit}.");
        if ((long)count * entrySize > available)
            throw new InvalidDataException($"{path}: {what} claims {count} entries of {entrySize} bytes but its stream holds {Math.Max(0, available)} bytes.");
    }
}
