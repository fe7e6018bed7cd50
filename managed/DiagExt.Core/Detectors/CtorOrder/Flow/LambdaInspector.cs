using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using DiagExt.Core.Il;

namespace DiagExt.Core.Detectors.CtorOrder.Flow;

/// <summary>
/// Reads the body of a lambda passed to OrderBy/First to tell what it looks at: a sort key that reads
/// MetadataToken is unique per constructor (no ties); a predicate that reads parameters picks by signature.
/// </summary>
internal sealed class LambdaInspector(AssemblyImage image)
{
    private readonly Dictionary<MethodDefinitionHandle, HashSet<string>> _calls = [];

    /// <summary>A key no two constructors share: the metadata token (declaration order).</summary>
    public bool KeyIsUnique(MethodDefinitionHandle lambda) => CalledNames(lambda).Contains("get_MetadataToken");

    /// <summary>A predicate that inspects the parameters or attributes, i.e. picks a constructor by what it is, not where it is.</summary>
    public bool PicksBySignature(MethodDefinitionHandle lambda)
    {
        HashSet<string> names = CalledNames(lambda);
        return names.Contains("GetParameters") || names.Contains("get_ParameterType") || names.Contains("IsDefined")
            || names.Contains("GetCustomAttribute") || names.Contains("GetCustomAttributes") || names.Contains("GetCustomAttributesData");
    }

    private HashSet<string> CalledNames(MethodDefinitionHandle lambda)
    {
        if (_calls.TryGetValue(lambda, out HashSet<string>? names))
            return names;
        names = [];
        try
        {
            if (image.Body(lambda) is { } body)
            {
                foreach (IlInstruction ins in IlDecoder.Decode(body.GetILBytes()))
                {
                    if (ins.OpCode is not (ILOpCode.Call or ILOpCode.Callvirt))
                        continue;
                    if (MethodReference.Resolve(image.Metadata, MetadataTokens.EntityHandle(ins.Token)) is { } called)
                        names.Add(called.Name);
                }
            }
        }
        catch (Exception e) when (MalformedMetadata.Is(e))
        {
            // An unreadable lambda tells nothing: callers then assume the worst (keys can tie).
        }
        _calls[lambda] = names;
        return names;
    }
}
