using DiagExt.Core.Heap;
using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.CtorOrder;

/// <summary>
/// The constructors reflection has handed out for one type, in the order it keeps them:
/// RuntimeTypeCache.m_constructorInfoCache.m_allMembers, each RuntimeConstructorInfo.m_handle a MethodDesc.
/// Once the cache is complete (m_cacheComplete) GetConstructors() returns this array's order.
/// </summary>
internal sealed record ReflectionCtorCache(ulong MethodTable, IReadOnlyList<ulong> MethodDescs, bool Complete, ulong CacheAddress)
{
    /// <summary>More constructors than any real type has: a longer array is corrupt.</summary>
    public const int MaxConstructors = 4096;

    /// <summary>
    /// Reads one RuntimeTypeCache; null when it holds no constructor list, its fields are not there, or ClrMD cannot
    /// read the types involved (a corrupt MethodTable: <see cref="CorruptType"/>).
    /// </summary>
    public static ReflectionCtorCache? TryRead(Target target, ClrObject typeCache)
    {
        try
        {
            return Read(target, typeCache);
        }
        catch (Exception e) when (CorruptType.Is(e))
        {
            return null;
        }
    }

    private static ReflectionCtorCache? Read(Target target, ClrObject typeCache)
    {
        if (!typeCache.TryReadObjectField("m_constructorInfoCache", out ClrObject memberCache) || memberCache.IsNull)
            return null;
        if (!typeCache.TryReadObjectField("m_runtimeType", out ClrObject runtimeType) || runtimeType.IsNull)
            return null;
        ulong methodTable = ReadPointerField(target, runtimeType, "m_handle");
        if (methodTable == 0 || !memberCache.TryReadObjectField("m_allMembers", out ClrObject members) || members.IsNull || members.Type is not { IsArray: true })
            return null;
        int length = TargetArrays.ReadLength(target, members.Address);
        if (length <= 0 || length > MaxConstructors)
            return null;
        ulong[]? infos = TargetArrays.ReadPointers(target, members.Address, length);
        if (infos is null)
            return null;
        var methodDescs = new List<ulong>(length);
        ClrHeap heap = typeCache.Type!.Heap;
        foreach (ulong info in infos)
        {
            if (info == 0)
                break; // the cache grows in steps: trailing slots stay empty
            ClrObject ctor = heap.GetObject(info);
            ulong md = ctor.IsValid ? ReadPointerField(target, ctor, "m_handle") : 0;
            if (md == 0)
                return null;
            methodDescs.Add(md);
        }
        bool complete = memberCache.TryReadField("m_cacheComplete", out bool done) && done;
        return methodDescs.Count == 0 ? null : new ReflectionCtorCache(methodTable, methodDescs, complete, typeCache.Address);
    }

    private static ulong ReadPointerField(Target target, ClrObject obj, string name)
    {
        if (target.PointerSize == 8)
            return obj.TryReadField(name, out ulong value) ? value : 0;
        return obj.TryReadField(name, out uint small) ? small : 0;
    }
}
