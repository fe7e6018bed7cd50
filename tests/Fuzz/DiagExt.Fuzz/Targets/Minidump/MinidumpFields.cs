using DiagExt.Fuzz.Engine;
using DiagExt.Fuzz.Targets.Pe;

namespace DiagExt.Fuzz.Targets.Minidump;

/// <summary>
/// Finds the fields of a minidump that DiagExt trusts, with its own tolerant walk (not the reader under test): the
/// header and stream directory, the thread, thread info, module and memory lists, system info, each thread's
/// CONTEXT registers and stack words, and in captured memory the TEB, PEB, loader lock and module images.
/// </summary>
internal static class MinidumpFields
{
    private const int MaxEntries = 64;

    public static IReadOnlyList<Field> Find(ReadOnlySpan<byte> d)
    {
        var fields = new FieldList(d.Length);
        if (d.Length < 32 || FieldList.U32(d, 0) != 0x504D444D)
            return fields.ToList();
        fields.Add(8, 4, FieldKind.Count);
        fields.Add(12, 4, FieldKind.Offset, 0);
        uint count = Math.Min(FieldList.U32(d, 8), 4096u), directory = FieldList.U32(d, 12);
        var streams = new Dictionary<uint, (uint Size, uint Rva)>();
        for (uint i = 0; i < count; i++)
        {
            long e = directory + i * 12L;
            if (e + 12 > d.Length)
                break;
            fields.Add(e, 4, FieldKind.Tag, 3);
            fields.Add(e + 4, 4, FieldKind.Length);
            fields.Add(e + 8, 4, FieldKind.Offset, (ulong)e);
            streams.TryAdd(FieldList.U32(d, e), (FieldList.U32(d, e + 4), FieldList.U32(d, e + 8)));
        }
        var memory = MemoryMap.Read(d, streams);
        memory.AddListFields(d, streams, fields);
        ushort arch = streams.TryGetValue(7, out var si) ? FieldList.U16(d, si.Rva) : (ushort)9;
        if (streams.TryGetValue(7, out si))
        {
            fields.Add(si.Rva, 2, FieldKind.Tag, 9);
            fields.Add(si.Rva + 8, 4, FieldKind.Tag, 10);
        }
        if (streams.TryGetValue(15, out var misc))
            fields.Add(misc.Rva + 4, 4, FieldKind.Tag, 3);
        if (streams.TryGetValue(17, out var infos))
        {
            fields.Add(infos.Rva, 4, FieldKind.Length);
            fields.Add(infos.Rva + 4, 4, FieldKind.Length);
            fields.Add(infos.Rva + 8, 4, FieldKind.Count);
        }
        if (streams.TryGetValue(3, out var threads))
            AddThreads(d, threads.Rva, arch, memory, fields);
        if (streams.TryGetValue(4, out var modules))
            AddModules(d, modules.Rva, memory, fields);
        return fields.ToList();
    }

    private static void AddThreads(ReadOnlySpan<byte> d, uint rva, ushort arch, MemoryMap memory, FieldList fields)
    {
        fields.Add(rva, 4, FieldKind.Count);
        bool is64 = arch == 9;
        for (uint i = 0; i < Math.Min(FieldList.U32(d, rva), (uint)MaxEntries); i++)
        {
            long t = rva + 4 + i * 48L;
            ulong teb = FieldList.U64(d, t + 16), stack = FieldList.U64(d, t + 24);
            fields.Add(t, 4, FieldKind.Tag);
            fields.Add(t + 16, 8, FieldKind.Pointer, stack);
            fields.Add(t + 24, 8, FieldKind.Pointer, teb);
            fields.Add(t + 32, 4, FieldKind.Length);
            fields.Add(t + 36, 4, FieldKind.Offset, (ulong)t);
            fields.Add(t + 40, 4, FieldKind.Length);
            fields.Add(t + 44, 4, FieldKind.Offset, (ulong)t);
            long context = FieldList.U32(d, t + 44);
            ulong sp = is64 ? FieldList.U64(d, context + 0x98) : FieldList.U32(d, context + 0xC4);
            if (is64)
            {
                fields.Add(context + 0xF8, 8, FieldKind.Pointer, sp); // Rip
                fields.Add(context + 0x98, 8, FieldKind.Pointer, teb); // Rsp
                fields.Add(context + 0xA0, 8, FieldKind.Pointer, sp); // Rbp
            }
            else
            {
                fields.Add(context + 0xB8, 4, FieldKind.Pointer, sp);
                fields.Add(context + 0xC4, 4, FieldKind.Pointer, teb);
            }
            AddStackWords(sp, is64 ? 8 : 4, memory, fields);
            AddTeb(d, teb, is64, memory, fields);
        }
    }

    /// <summary>Return-address slots near the stack pointer: set to point at the stack itself, or into code.</summary>
    private static void AddStackWords(ulong sp, int size, MemoryMap memory, FieldList fields)
    {
        for (int k = 0; k < 16; k++)
            if (memory.OffsetOf(sp + (ulong)(k * size)) is long at and >= 0)
                fields.Add(at, size, FieldKind.Pointer, sp + (ulong)(k * size));
    }

    private static void AddTeb(ReadOnlySpan<byte> d, ulong teb, bool is64, MemoryMap memory, FieldList fields)
    {
        int ptr = is64 ? 8 : 4;
        (int self, int stackBase, int stackLimit, int client, int peb, int loaderLock) = is64 ? (0x30, 0x08, 0x10, 0x48, 0x60, 0x110) : (0x18, 0x04, 0x08, 0x24, 0x30, 0xA0);
        if (memory.OffsetOf(teb) is not (long at and >= 0))
            return;
        fields.Add(at + self, ptr, FieldKind.Pointer, teb);
        fields.Add(at + stackBase, ptr, FieldKind.Pointer, teb);
        fields.Add(at + stackLimit, ptr, FieldKind.Pointer, teb);
        fields.Add(at + client, ptr, FieldKind.Tag);
        fields.Add(at + peb, ptr, FieldKind.Pointer, teb);
        if (is64)
            fields.Add(at + 0x180C, 4, FieldKind.Offset, 0x2000); // WowTebOffset
        ulong pebAddress = is64 ? FieldList.U64(d, at + peb) : FieldList.U32(d, at + peb);
        if (memory.OffsetOf(pebAddress + (ulong)loaderLock) is not (long lockField and >= 0))
            return;
        fields.Add(lockField, ptr, FieldKind.Pointer, pebAddress);
        ulong lockAddress = is64 ? FieldList.U64(d, lockField) : FieldList.U32(d, lockField);
        if (memory.OffsetOf(lockAddress) is not (long cs and >= 0))
            return;
        fields.Add(cs, ptr, FieldKind.Pointer, lockAddress);                  // DebugInfo
        fields.Add(cs + ptr, 4, FieldKind.Tag, 0xFFFFFFFE);                     // LockCount: locked, no waiters
        fields.Add(cs + ptr + 4, 4, FieldKind.Count);                           // RecursionCount
        fields.Add(cs + ptr + 8, ptr, FieldKind.Tag, FieldList.U32(d, at + client)); // OwningThread
    }

    private static void AddModules(ReadOnlySpan<byte> d, uint rva, MemoryMap memory, FieldList fields)
    {
        fields.Add(rva, 4, FieldKind.Count);
        for (uint i = 0; i < Math.Min(FieldList.U32(d, rva), (uint)MaxEntries); i++)
        {
            long m = rva + 4 + i * 108L;
            ulong imageBase = FieldList.U64(d, m);
            fields.Add(m, 8, FieldKind.Pointer, imageBase + 0x1000);
            fields.Add(m + 8, 4, FieldKind.Length);
            fields.Add(m + 20, 4, FieldKind.Offset, (ulong)m);
            fields.Add(FieldList.U32(d, m + 20), 4, FieldKind.Length);
            if (i < 16)
                PeFieldFinder.Add(d, r => memory.OffsetOf(imageBase + r) ?? -1, fields);
        }
    }
}
