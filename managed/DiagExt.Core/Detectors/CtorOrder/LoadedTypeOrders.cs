using DiagExt.Core.Targets;
using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using DiagExt.Core.Analysis;
using DiagExt.Core.Il;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.CtorOrder;

/// <summary>
/// For every type whose constructors reflection has listed in the target (two or more), the order it
/// keeps them in next to their declaration order, and whether the MethodDesc chunk reconstruction agrees.
/// </summary>
internal static class LoadedTypeOrders
{
    public const int MaxTypes = 200_000;

    public sealed record Result(IReadOnlyList<(TypeCtorOrder Order, ClrModule Module)> Types, int ChunkOrderAgrees, int ChunkOrderDisagrees, int ChunkOrderUnknown);

    public static Result Read(AnalysisContext context, ReflectionCacheInterest interest, LoadedModuleImages images)
    {
        ClrRuntime runtime = context.Target.Runtime!;
        var types = new List<(TypeCtorOrder, ClrModule)>();
        int agrees = 0, disagrees = 0, unknown = 0;
        foreach (ClrObject cacheObject in context.Heap.ObjectsFor(interest))
        {
            context.Cancellation.ThrowIfCancellationRequested();
            if (types.Count >= MaxTypes)
                break;
            if (ReflectionCtorCache.TryRead(context.Target, cacheObject) is not { Complete: true, MethodDescs.Count: >= 2 } cache)
                continue;
            if (runtime.GetTypeByMethodTable(cache.MethodTable) is not { } type || images.MetadataFor(type.Module) is not { } md)
                continue;
            if (Describe(runtime, md, type, cache) is not { } order)
                continue;
            types.Add((order, type.Module));

            IReadOnlyList<ulong>? chunkOrder = MethodDescChunkOrder.Order(context.Target, cache.MethodDescs, cache.MethodTable);
            if (chunkOrder is null)
                unknown++;
            else if (chunkOrder.SequenceEqual(cache.MethodDescs))
                agrees++;
            else
                disagrees++;
        }
        return new Result(types, agrees, disagrees, unknown);
    }

    private static TypeCtorOrder? Describe(ClrRuntime runtime, MetadataReader md, ClrType type, ReflectionCtorCache cache)
    {
        var runtimeTokens = new List<int>();
        foreach (ulong methodDesc in cache.MethodDescs)
        {
            if (runtime.GetMethodByHandle(methodDesc) is not { } method)
                return null;
            runtimeTokens.Add(method.MetadataToken);
        }
        try
        {
            var typeDef = (TypeDefinitionHandle)MetadataTokens.EntityHandle(type.MetadataToken);
            var declared = md.GetTypeDefinition(typeDef).GetMethods()
                .Select(h => MetadataTokens.GetToken(h))
                .Where(runtimeTokens.Contains)
                .ToList();
            if (declared.Count != runtimeTokens.Count)
                return null;
            return new TypeCtorOrder(
                type.Name ?? MetadataNames.TypeName(md, typeDef),
                AssemblyImage.NameOf(md),
                cache.MethodTable,
                runtimeTokens.Select(t => Signature(md, t)).ToList(),
                declared.Select(t => Signature(md, t)).ToList(),
                TypeCtorOrder.FromReflectionCache);
        }
        catch (Exception e) when (MalformedMetadata.Is(e))
        {
            return null;
        }
    }

    /// <summary>".ctor(String)": the constructor as people recognise it.</summary>
    private static string Signature(MetadataReader md, int token)
    {
        var handle = (MethodDefinitionHandle)MetadataTokens.EntityHandle(token);
        MethodDefinition method = md.GetMethodDefinition(handle);
        MethodSignature<string> sig = Signatures.Method(md, method);
        return $"{md.GetString(method.Name)}({string.Join(", ", sig.ParameterTypes.Select(MetadataNames.Short))})";
    }
}
