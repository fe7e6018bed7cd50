using System.Buffers.Binary;
using System.Runtime.CompilerServices;

using IMemoryReader = DiagExt.Core.Native.IMemoryReader;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Heap;

/// <summary>
/// Walks a heap segment of a 64-bit dump by reading its memory in 1 MB blocks straight from the dump file and
/// parsing object headers itself (ClrMD gives the segments, the allocation contexts and, once per MethodTable,
/// the type and its sizes). ClrMD's own walk builds a ClrType for every object under a lock and reads through
/// one locked stream: on the bench's 10.5 M-object dump it takes 4-5 times as long (bench/RESULTS.md).
/// The facts it relies on are in docs/design/internals.md, section 5.
/// It stops at the first object it cannot account for (an unknown MethodTable, memory the dump lacks) and
/// returns the address of the last object it could not yet vouch for: the caller walks the rest of that segment
/// with ClrMD's careful walk, which decides what is damage. Every object is handed on only once the next one
/// (or the segment's end) confirms its size, so a wrong size here can never add a phantom object.
/// </summary>
internal sealed class DumpHeapWalker
{
    private const int BlockSize = 1 << 20;
    private const int HeaderSize = 16; // MethodTable pointer and the length of an array or string

    private readonly IMemoryReader _memory;
    private readonly ClrHeap _heap;
    private readonly MethodTableFilter _filter;
    private readonly MemoryRange[] _contexts;
    private readonly Dictionary<ulong, ObjectLayout?> _layouts = [];
    private readonly byte[] _block = new byte[BlockSize];
    private ulong _blockStart;
    private int _blockLength;
    // A direct-mapped cache in front of the dictionary: consecutive objects change type often (a list node, then its
    // string), and a dictionary lookup per change cost more than the rest of the walk.
    private const int CacheSlots = 1024;
    private readonly ulong[] _cachedMethodTables = new ulong[CacheSlots];
    private readonly ObjectLayout?[] _cachedLayouts = new ObjectLayout?[CacheSlots];

    public DumpHeapWalker(IMemoryReader memory, ClrHeap heap, MethodTableFilter filter)
    {
        _memory = memory;
        _heap = heap;
        _filter = filter;
        _contexts = AllocationContexts(heap);
    }

    /// <summary>
    /// Only a 64-bit .NET (Core) target whose memory DiagExt reads itself (a dump's file, a stopped Linux process's
    /// /proc/PID/mem), the layout checked against ClrMD's walk (DumpHeapWalkerTests); a 32-bit target, .NET Framework
    /// and a process that is not stopped keep ClrMD's walk.
    /// </summary>
    public static bool Applies(IMemoryReader? memory, ClrHeap heap) =>
        memory is not null && heap.Runtime.DataTarget.DataReader.PointerSize == 8 && heap.Runtime.ClrInfo.Flavor == ClrFlavor.Core;

    /// <summary>
    /// Walks <paramref name="segment"/>, handing each object to <paramref name="found"/> (address, layout).
    /// Returns the segment's end when it walked all of it or met an object that runs past it (said in
    /// <paramref name="damage"/>), else the address from which ClrMD must walk the rest.
    /// </summary>
    public ulong Walk(ClrSegment segment, Action<ulong, ObjectLayout> found, List<HeapDamage> damage, CancellationToken cancellation)
    {
        ulong address = segment.ObjectRange.Start, end = segment.ObjectRange.End;
        bool contexts = segment.Kind is not (GCSegmentKind.Large or GCSegmentKind.Frozen);
        int nextContext = contexts ? FirstContextAtOrAfter(address) : _contexts.Length;
        _blockLength = 0;
        ulong pending = 0;
        ObjectLayout? pendingLayout = null;
        long steps = 0;
        while (address < end)
        {
            if ((++steps & 0xFFFF) == 0)
                cancellation.ThrowIfCancellationRequested();
            if (nextContext < _contexts.Length)
            {
                while (nextContext < _contexts.Length && _contexts[nextContext].Start < address)
                    nextContext++;
                // A thread's allocation context is unused space: the next object starts after its limit and the
                // gap of one minimum object the GC keeps there.
                if (nextContext < _contexts.Length && _contexts[nextContext].Start == address)
                {
                    ulong after = _contexts[nextContext].End + ObjectLayout.MinimumObjectSize;
                    if (after <= address)
                        return pendingLayout is null ? address : pending; // a context whose end wraps: not trusted
                    address = after;
                    continue;
                }
            }
            if (!TryReadHeader(address, end, out ulong methodTable, out uint length) || Layout(methodTable) is not { } layout)
                return pendingLayout is null ? address : pending;

            if (pendingLayout is not null)
                found(pending, pendingLayout);
            ulong size = layout.SizeOf(length);
            pending = address;
            pendingLayout = layout;
            if (size > end - address)
            {
                found(pending, pendingLayout);
                damage.Add(new HeapDamage.ObjectPastSegment(address, layout.Type.Name, layout.ClaimedSize(length), end));
                return end;
            }
            address += size;
        }
        if (pendingLayout is not null)
            found(pending, pendingLayout);
        return end;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool TryReadHeader(ulong address, ulong end, out ulong methodTable, out uint length)
    {
        ulong offset = address - _blockStart;
        if (address < _blockStart || offset + HeaderSize > (ulong)_blockLength)
        {
            // Next block from this object on: a large object is skipped without reading its body.
            int want = (int)Math.Min(BlockSize, end - address);
            _blockStart = address;
            _blockLength = want < HeaderSize ? 0 : _memory.ReadMemory(address, _block.AsSpan(0, want));
            offset = 0;
            if (_blockLength < HeaderSize)
            {
                _blockLength = 0;
                methodTable = 0;
                length = 0;
                return false;
            }
        }
        ReadOnlySpan<byte> header = _block.AsSpan((int)offset, HeaderSize);
        methodTable = BinaryPrimitives.ReadUInt64LittleEndian(header) & ~7UL; // the GC's mark bits, should a dump hold any
        length = BinaryPrimitives.ReadUInt32LittleEndian(header[8..]);
        return methodTable != 0;
    }

    /// <summary>The layout for a MethodTable, asked of ClrMD once; null when ClrMD knows no such type or cannot read it.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private ObjectLayout? Layout(ulong methodTable)
    {
        int slot = (int)((methodTable >> 3) ^ (methodTable >> 13)) & (CacheSlots - 1);
        if (_cachedMethodTables[slot] != methodTable)
        {
            _cachedLayouts[slot] = LookUp(methodTable);
            _cachedMethodTables[slot] = methodTable; // never 0: a MethodTable of 0 is not looked up
        }
        return _cachedLayouts[slot];
    }

    private ObjectLayout? LookUp(ulong methodTable)
    {
        if (_layouts.TryGetValue(methodTable, out ObjectLayout? layout))
            return layout;
        try
        {
            layout = _heap.GetTypeByMethodTable(methodTable) is { } type ? ObjectLayout.For(type, _heap, _filter.WantedBy(type)) : null;
        }
        catch (Exception e) when (CorruptType.Is(e))
        {
            layout = null; // ClrMD's careful walk meets it again and decides what it is
        }
        _layouts.Add(methodTable, layout);
        return layout;
    }

    private int FirstContextAtOrAfter(ulong address)
    {
        int i = 0;
        while (i < _contexts.Length && _contexts[i].Start < address)
            i++;
        return i;
    }

    /// <summary>
    /// Every allocation context, including the ones a thread has used up (pointer == limit), which ClrMD 4.1's
    /// heap-wide list leaves out (bench/RESULTS.md, "The careful walk"): the threads' own contexts add them.
    /// </summary>
    private static MemoryRange[] AllocationContexts(ClrHeap heap)
    {
        var starts = new Dictionary<ulong, MemoryRange>();
        foreach (MemoryRange context in heap.EnumerateAllocationContexts())
            if (context.Start != 0 && context.End >= context.Start)
                starts.TryAdd(context.Start, context);
        foreach (ClrThread thread in heap.Runtime.Threads)
            if (thread.AllocationContext is { Start: not 0 } context && context.End >= context.Start)
                starts.TryAdd(context.Start, context);
        return [.. starts.Values.OrderBy(c => c.Start)];
    }
}
