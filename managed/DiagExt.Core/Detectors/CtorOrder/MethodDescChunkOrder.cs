using DiagExt.Core.Targets;

namespace DiagExt.Core.Detectors.CtorOrder;

/// <summary>
/// Reconstructs the order in which the runtime enumerates a type's methods (and so GetConstructors()
/// returns them): the EEClass's MethodDescChunk list in list order, MethodDescs by address within a chunk.
/// Layout (dotnet/runtime src/coreclr/vm/method.hpp): MethodDesc {u16 flags3AndTokenRemainder; u8
/// m_chunkIndex; ...}; MethodDescChunk {MethodTable* m_methodTable; MethodDescChunk* m_next; u8 m_size;
/// u8 m_count; u16 m_flagsAndTokenRange} (pointer-aligned); chunk = MD - (sizeof(chunk) + chunkIndex *
/// MethodDesc::ALIGNMENT). A chunk whose m_methodTable is not the type's own means the layout is not
/// this one: the answer is then "unknown", never a guess.
/// </summary>
internal static class MethodDescChunkOrder
{
    /// <summary>Longest chunk list followed between two of a type's chunks.</summary>
    public const int MaxChunkWalk = 4096;

    public static IReadOnlyList<ulong>? Order(Target target, IReadOnlyList<ulong> methodDescs, ulong methodTable)
    {
        int ptr = target.PointerSize;
        ulong alignment = (ulong)ptr; // MethodDesc::ALIGNMENT: 8 on 64-bit, 4 on 32-bit
        ulong chunkHeader = (ulong)(2 * ptr + 4 + (ptr - 4)); // two pointers and 4 bytes, padded to pointer size
        var chunkOf = new Dictionary<ulong, ulong>();
        Span<byte> one = stackalloc byte[1];
        foreach (ulong md in methodDescs)
        {
            if (target.ReadMemory(md + 2, one) != 1)
                return null;
            ulong chunk = md - (chunkHeader + one[0] * alignment);
            if (ReadPointer(target, chunk) != methodTable)
                return null;
            chunkOf[md] = chunk;
        }
        List<ulong> chunks = chunkOf.Values.Distinct().ToList();
        Dictionary<ulong, int> rank = RankByList(target, chunks);
        if (rank.Count != chunks.Count)
            return null;
        return methodDescs.OrderBy(md => rank[chunkOf[md]]).ThenBy(md => md).ToList();
    }

    /// <summary>Orders chunks by following m_next: a chunk comes before every chunk reachable from it.</summary>
    private static Dictionary<ulong, int> RankByList(Target target, List<ulong> chunks)
    {
        var set = chunks.ToHashSet();
        var reachableCount = new Dictionary<ulong, int>();
        foreach (ulong start in chunks)
        {
            int found = 0;
            ulong current = start;
            for (int step = 0; step < MaxChunkWalk; step++)
            {
                current = ReadPointer(target, current + (ulong)target.PointerSize);
                if (current == 0 || current == start)
                    break;
                if (set.Contains(current))
                    found++;
            }
            reachableCount[start] = found;
        }
        // The head reaches all others, the tail none: more reachable chunks means earlier in the list.
        return chunks.OrderByDescending(c => reachableCount[c]).Select((c, i) => (c, i)).ToDictionary(x => x.c, x => x.i);
    }

    private static ulong ReadPointer(Target target, ulong address)
    {
        Span<byte> b = stackalloc byte[8];
        int size = target.PointerSize;
        if (target.ReadMemory(address, b[..size]) != size)
            return 0;
        return size == 8 ? BitConverter.ToUInt64(b) : BitConverter.ToUInt32(b);
    }
}
