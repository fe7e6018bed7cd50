using System.Buffers.Binary;

namespace DiagExt.Fuzz.Targets.Minidump;

/// <summary>
/// Minidumps written in code, so the fuzzer has a seed whose every stream DiagExt reads is present before any real
/// dump exists: an x64 process with one thread whose TEB, PEB and held loader lock are captured, one module with a
/// name, a CONTEXT and a stack. The real seeds (shared dumps, Wine dumps) matter more; these only start the search.
/// </summary>
internal static class SyntheticMinidump
{
    private const ulong Teb = 0x7FF000000000, Peb = 0x7FF000010000, Lock = 0x7FF000020000, Stack = 0x7FF000030000;
    private const uint ThreadId = 0x1234;

    public static IEnumerable<byte[]> All()
    {
        yield return Build(held: true);
        yield return Build(held: false);
    }

    private static byte[] Build(bool held)
    {
        var w = new List<byte>(new byte[32]);
        var directory = new List<(uint Type, uint Size, uint Rva)>();
        uint Append(byte[] data)
        {
            uint rva = (uint)w.Count;
            w.AddRange(data);
            return rva;
        }
        void Stream(uint type, byte[] data) => directory.Add((type, (uint)data.Length, Append(data)));

        var systemInfo = new byte[56];
        systemInfo[0] = 9; // AMD64
        BinaryPrimitives.WriteUInt32LittleEndian(systemInfo.AsSpan(8), 10);
        Stream(7, systemInfo);

        var context = new byte[0x4D0];
        BinaryPrimitives.WriteUInt64LittleEndian(context.AsSpan(0x98), Stack + 0x100); // Rsp
        BinaryPrimitives.WriteUInt64LittleEndian(context.AsSpan(0xF8), 0x180001000);   // Rip
        uint contextRva = Append(context);
        uint nameRva = Append([16, 0, 0, 0, .. System.Text.Encoding.Unicode.GetBytes("fuzz.dll")]);

        var teb = new byte[0x1800];
        Put(teb, 0x08, Stack + 0x1000);
        Put(teb, 0x10, Stack);
        Put(teb, 0x30, Teb);
        Put(teb, 0x48, ThreadId);
        Put(teb, 0x60, Peb);
        var peb = new byte[0x200];
        Put(peb, 0x110, Lock);
        var cs = new byte[0x28];
        BinaryPrimitives.WriteInt32LittleEndian(cs.AsSpan(8), held ? 1 : -1);
        BinaryPrimitives.WriteInt32LittleEndian(cs.AsSpan(12), held ? 1 : 0);
        Put(cs, 0x10, held ? ThreadId : 0);
        var stack = new byte[0x1000];
        var memory = new List<(ulong Start, byte[] Bytes)> { (Teb, teb), (Peb, peb), (Lock, cs), (Stack, stack) };
        var memoryList = new List<byte>(BitConverter.GetBytes(memory.Count));
        foreach (var (start, bytes) in memory)
        {
            uint rva = Append(bytes);
            memoryList.AddRange(BitConverter.GetBytes(start));
            memoryList.AddRange(BitConverter.GetBytes(bytes.Length));
            memoryList.AddRange(BitConverter.GetBytes(rva));
        }
        Stream(5, [.. memoryList]);

        var thread = new byte[4 + 48];
        BinaryPrimitives.WriteUInt32LittleEndian(thread, 1);
        BinaryPrimitives.WriteUInt32LittleEndian(thread.AsSpan(4), ThreadId);
        Put(thread, 4 + 16, Teb);
        Put(thread, 4 + 24, Stack);
        BinaryPrimitives.WriteUInt32LittleEndian(thread.AsSpan(4 + 32), 0x1000);
        BinaryPrimitives.WriteUInt32LittleEndian(thread.AsSpan(4 + 40), (uint)context.Length);
        BinaryPrimitives.WriteUInt32LittleEndian(thread.AsSpan(4 + 44), contextRva);
        Stream(3, thread);

        var module = new byte[4 + 108];
        BinaryPrimitives.WriteUInt32LittleEndian(module, 1);
        Put(module, 4, 0x180000000);
        BinaryPrimitives.WriteUInt32LittleEndian(module.AsSpan(4 + 8), 0x10000);
        BinaryPrimitives.WriteUInt32LittleEndian(module.AsSpan(4 + 20), nameRva);
        Stream(4, module);

        uint directoryRva = (uint)w.Count;
        foreach (var (type, size, rva) in directory)
        {
            w.AddRange(BitConverter.GetBytes(type));
            w.AddRange(BitConverter.GetBytes(size));
            w.AddRange(BitConverter.GetBytes(rva));
        }
        byte[] dump = [.. w];
        BinaryPrimitives.WriteUInt32LittleEndian(dump, 0x504D444D);
        BinaryPrimitives.WriteUInt32LittleEndian(dump.AsSpan(4), 0xA793);
        BinaryPrimitives.WriteUInt32LittleEndian(dump.AsSpan(8), (uint)directory.Count);
        BinaryPrimitives.WriteUInt32LittleEndian(dump.AsSpan(12), directoryRva);
        return dump;
    }

    private static void Put(byte[] to, int offset, ulong value) => BinaryPrimitives.WriteUInt64LittleEndian(to.AsSpan(offset), value);
}
