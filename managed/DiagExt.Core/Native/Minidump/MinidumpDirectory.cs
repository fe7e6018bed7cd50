using DiagExt.Core.Targets;

namespace DiagExt.Core.Native.Minidump;

/// <summary>The MINIDUMP_HEADER and its stream directory, validated against the file length.</summary>
internal sealed class MinidumpDirectory
{
    public const uint Signature = 0x504D444D; // "MDMP"
    private const int HeaderSize = 32;
    private const int EntrySize = 12;

    private readonly Dictionary<uint, (uint Size, uint Rva)> _streams = new();

    private MinidumpDirectory(uint timeDateStamp, ulong flags)
    {
        TimeDateStamp = timeDateStamp;
        Flags = flags;
    }

    public uint TimeDateStamp { get; }

    public ulong Flags { get; }

    public static MinidumpDirectory Read(FileBytes file, Limits limits)
    {
        byte[] header = file.ReadExactly(0, HeaderSize)
            ?? throw new InvalidDataException($"{file.Path}: file is shorter than a minidump header ({file.Length} bytes).");
        if (BinaryReads.U32(header, 0) != Signature)
            throw new InvalidDataException($"{file.Path}: not a minidump (no MDMP signature).");

        uint count = BinaryReads.U32(header, 8);
        uint directoryRva = BinaryReads.U32(header, 12);
        if (count > limits.MaxMinidumpStreams)
            throw new InvalidDataException($"{file.Path}: minidump claims {count} streams; the limit is {limits.MaxMinidumpStreams}.");

        byte[] entries = file.ReadExactly(directoryRva, checked((int)count * EntrySize))
            ?? throw new InvalidDataException($"{file.Path}: minidump stream directory at 0x{directoryRva:x} lies beyond the end of the file ({file.Length} bytes): the dump is truncated.");

        var directory = new MinidumpDirectory(BinaryReads.U32(header, 20), BinaryReads.U64(header, 24));
        for (int i = 0; i < count; i++)
        {
            uint type = BinaryReads.U32(entries, i * EntrySize);
            uint size = BinaryReads.U32(entries, i * EntrySize + 4);
            uint rva = BinaryReads.U32(entries, i * EntrySize + 8);
            if (type == 0 || size == 0)
                continue; // UnusedStream entries pad the directory.
            // The first stream of a type wins, as in dbghelp.
            _ = directory._streams.TryAdd(type, (size, rva));
        }
        return directory;
    }

    public bool TryGet(MinidumpStreamType type, out uint size, out uint rva)
    {
        if (_streams.TryGetValue((uint)type, out var s))
        {
            (size, rva) = s;
            return true;
        }
        size = rva = 0;
        return false;
    }

    public IEnumerable<uint> StreamTypes => _streams.Keys;
}
