using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using DiagExt.Core.Il;

namespace DiagExt.Core.Detectors.CtorOrder.Flow;

/// <summary>Resolves and classifies call tokens of one assembly, once per token.</summary>
internal sealed class CallResolver(MetadataReader metadata)
{
    private readonly Dictionary<int, (MethodReference? Method, KnownCallKind Kind)> _cache = [];

    public (MethodReference? Method, KnownCallKind Kind) Resolve(int token)
    {
        if (_cache.TryGetValue(token, out var hit))
            return hit;
        MethodReference? method = null;
        try
        {
            EntityHandle handle = MetadataTokens.EntityHandle(token);
            method = handle.Kind == HandleKind.StandaloneSignature
                ? MethodReference.ResolveStandalone(metadata, (StandaloneSignatureHandle)handle)
                : MethodReference.Resolve(metadata, handle);
        }
        catch (Exception e) when (MalformedMetadata.Is(e))
        {
            // A token outside every table, of the wrong kind, or a broken signature: the caller treats the call as malformed.
        }
        var result = (method, method is null ? KnownCallKind.Other : KnownCall.Classify(method));
        _cache[token] = result;
        return result;
    }
}
