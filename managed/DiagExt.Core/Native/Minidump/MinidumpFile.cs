using DiagExt.Core.Targets;

namespace DiagExt.Core.Native.Minidump;

/// <summary>
/// A Windows minidump read by DiagExt itself: threads, thread times, modules, system info and captured
/// memory. It needs no DAC and no PDB and runs on any host. Streams are parsed on first use.
/// </summary>
internal sealed class MinidumpFile : IMemoryReader, IDisposable
{
    private readonly FileBytes _file;
    private readonly MinidumpDirectory _directory;
    private readonly Limits _limits;
    private readonly Lazy<IReadOnlyList<MinidumpThread>> _threads;
    private readonly Lazy<IReadOnlyList<MinidumpThreadInfo>?> _threadInfos;
    private readonly Lazy<IReadOnlyList<MinidumpModule>> _modules;
    private readonly Lazy<MinidumpMemoryRange[]> _memory;
    private readonly Lazy<MinidumpSystemInfo?> _systemInfo;
    private readonly Lazy<MinidumpMiscInfo?> _miscInfo;
    private readonly Lazy<IReadOnlyList<MinidumpHandle>?> _handles;

    private MinidumpFile(FileBytes file, MinidumpDirectory directory, Limits limits)
    {
        _file = file;
        _directory = directory;
        _limits = limits;
        _threads = new(() => ParseOrEmpty(MinidumpStreamType.ThreadList, s => MinidumpStreamParsers.Threads(Path, s, _limits)));
        _threadInfos = new(() => Stream(MinidumpStreamType.ThreadInfoList) is { } s ? MinidumpStreamParsers.ThreadInfos(Path, s, _limits) : null);
        _modules = new(() => ParseOrEmpty(MinidumpStreamType.ModuleList, s => MinidumpStreamParsers.Modules(_file, s, _limits)));
        _memory = new(BuildMemoryIndex);
        _systemInfo = new(() => Stream(MinidumpStreamType.SystemInfo) is { } s ? MinidumpStreamParsers.SystemInfo(s) : null);
        _miscInfo = new(() => Stream(MinidumpStreamType.MiscInfo) is { } s ? MinidumpStreamParsers.MiscInfo(s) : null);
        _handles = new(ReadHandles);
    }

    public string Path => _file.Path;

    public long FileLength => _file.Length;

    /// <summary>When the dump was written (header TimeDateStamp), if set.</summary>
    public DateTime? Timestamp => _directory.TimeDateStamp == 0 ? null : DateTime.UnixEpoch.AddSeconds(_directory.TimeDateStamp);

    public IReadOnlyList<MinidumpThread> Threads => _threads.Value;

    /// <summary>Per-thread times, or null when the dump has no ThreadInfoList stream.</summary>
    public IReadOnlyList<MinidumpThreadInfo>? ThreadInfos => _threadInfos.Value;

    public IReadOnlyList<MinidumpModule> Modules => _modules.Value;

    public IReadOnlyList<MinidumpMemoryRange> MemoryRanges => _memory.Value;

    public MinidumpSystemInfo? SystemInfo => _systemInfo.Value;

    public MinidumpMiscInfo? MiscInfo => _miscInfo.Value;

    /// <summary>
    /// The process's handles, or null when the dump has no handle data stream (MiniDumpWithHandleData) or a broken one:
    /// only a refinement (what a thread waits on) rests on it, so it never stops a dump from being read.
    /// </summary>
    public IReadOnlyList<MinidumpHandle>? Handles => _handles.Value;

    /// <summary>Whether Wine's dbghelp wrote this dump: only it writes stream 0xFFF0 (its ELF module list).</summary>
    public bool WrittenByWine => _directory.TryGet(MinidumpStreamType.WineElfModuleList, out _, out _);

    public bool HasStream(uint type) => _directory.StreamTypes.Contains(type);

    public static MinidumpFile Open(string path, Limits? limits = null) => Open(new FileBytes(path), limits);

    /// <summary>Takes ownership of <paramref name="file"/> (disposed here when it is not a minidump).</summary>
    internal static MinidumpFile Open(FileBytes file, Limits? limits = null)
    {
        try
        {
            return new MinidumpFile(file, MinidumpDirectory.Read(file, limits ?? Limits.Default), limits ?? Limits.Default);
        }
        catch
        {
            file.Dispose();
            throw;
        }
    }

    /// <summary>Reads target memory at <paramref name="address"/>; returns how many bytes were captured there.</summary>
    public int ReadMemory(ulong address, Span<byte> buffer)
    {
        MinidumpMemoryRange[] ranges = _memory.Value;
        int total = 0;
        while (total < buffer.Length)
        {
            int index = SortedRanges.Find(ranges, address + (ulong)total);
            if (index < 0)
                break;
            MinidumpMemoryRange range = ranges[index];
            ulong offsetInRange = address + (ulong)total - range.Start;
            int want = (int)Math.Min((ulong)(buffer.Length - total), range.Size - offsetInRange);
            int read = _file.Read(range.FileOffset + (long)offsetInRange, buffer.Slice(total, want));
            total += read;
            if (read < want)
                break; // The range claims bytes the (truncated) file does not have.
        }
        return total;
    }

    /// <summary>The end of the memory range holding <paramref name="address"/>.</summary>
    public ulong RegionEnd(ulong address) => SortedRanges.Find(_memory.Value, address) is >= 0 and int i ? _memory.Value[i].Start + _memory.Value[i].Size : 0;

    public bool TryReadUInt32(ulong address, out uint value) => MemoryReaderExtensions.TryReadUInt32(this, address, out value);

    public bool TryReadUInt64(ulong address, out ulong value) => MemoryReaderExtensions.TryReadUInt64(this, address, out value);

    /// <summary>Reads a pointer of the target's size.</summary>
    public bool TryReadPointer(ulong address, bool is64Bit, out ulong value) => MemoryReaderExtensions.TryReadPointer(this, address, is64Bit ? 8 : 4, out value);

    /// <summary>The raw bytes of a thread's CONTEXT record, or null when not in the file.</summary>
    public byte[]? ReadThreadContext(MinidumpThread thread) =>
        thread.ContextSize is 0 or > 64 * 1024 ? null : _file.ReadExactly(thread.ContextRva, (int)thread.ContextSize);

    /// <summary>
    /// Parses every stream DiagExt reads now, so a corrupt one is an <see cref="InvalidDataException"/> while the dump
    /// is opened (one line for the user) rather than later, in the middle of a detector.
    /// </summary>
    public void Validate()
    {
        _ = (Threads, ThreadInfos, Modules, MemoryRanges, SystemInfo, MiscInfo);
    }

    /// <summary>The largest file offset any stream or memory range claims: a file shorter than this is truncated.</summary>
    public long RequiredFileLength()
    {
        long required = 0;
        foreach (MinidumpMemoryRange r in _memory.Value)
            required = Math.Max(required, r.FileOffset + (long)Math.Min(r.Size, (ulong)(long.MaxValue - r.FileOffset)));
        foreach (uint type in _directory.StreamTypes)
            if (_directory.TryGet((MinidumpStreamType)type, out uint size, out uint rva))
                required = Math.Max(required, (long)rva + size);
        return required;
    }

    public void Dispose() => _file.Dispose();

    private byte[]? Stream(MinidumpStreamType type)
    {
        if (!_directory.TryGet(type, out uint size, out uint rva))
            return null;
        return _file.ReadExactly(rva, (int)Math.Min(size, int.MaxValue))
            ?? throw new InvalidDataException($"{Path}: the {type} stream (0x{rva:x}, {size} bytes) lies beyond the end of the file ({_file.Length} bytes): the dump is truncated.");
    }

    private IReadOnlyList<T> ParseOrEmpty<T>(MinidumpStreamType type, Func<byte[], List<T>> parse) =>
        Stream(type) is { } s ? parse(s) : [];

    private IReadOnlyList<MinidumpHandle>? ReadHandles()
    {
        try
        {
            return Stream(MinidumpStreamType.HandleData) is { } s ? MinidumpStreamParsers.Handles(_file, s, _limits) : null;
        }
        catch (InvalidDataException)
        {
            return null;
        }
    }

    private MinidumpMemoryRange[] BuildMemoryIndex()
    {
        var ranges = new List<MinidumpMemoryRange>();
        if (Stream(MinidumpStreamType.MemoryList) is { } list)
            ranges.AddRange(MinidumpStreamParsers.MemoryList(Path, list, _limits));
        if (Stream(MinidumpStreamType.Memory64List) is { } list64)
            ranges.AddRange(MinidumpStreamParsers.Memory64List(Path, list64, _limits));
        ranges.RemoveAll(r => r.Size == 0 || r.Start + r.Size < r.Start);
        ranges.Sort((a, b) => a.Start.CompareTo(b.Start));
        return [.. ranges];
    }
}
