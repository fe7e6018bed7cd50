using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using DiagExt.Core.Il;

namespace DiagExt.Core.Detectors.CtorOrder.Flow;

/// <summary>
/// A summary per method of one assembly: does it hand back a type built at run time, that is, does it (or a
/// method of the same assembly it calls or passes as a delegate, a few levels down) call TypeBuilder.CreateType?
/// Mapster's DynamicTypeGenerator.GetTypeForInterface is such a method: the constructors of what it returns are
/// whatever its own DefineConstructor calls made, which the metadata of no assembly shows.
/// </summary>
internal sealed class RuntimeTypeBuilders(AssemblyImage image)
{
    private const int MaxDepth = 3;

    /// <summary>Method bodies decoded per assembly at most: the walk fans out, and this stays a cheap summary.</summary>
    private const int MaxBodies = 512;

    private static readonly HashSet<string> Builders = ["System.Reflection.Emit.TypeBuilder", "System.Reflection.Emit.EnumBuilder"];

    private readonly Dictionary<MethodDefinitionHandle, bool> _builds = [];
    private int _bodies;

    /// <summary>Whether <paramref name="method"/> returns what TypeBuilder.CreateType made, directly or a few calls down.</summary>
    public bool Builds(MethodDefinitionHandle method) => Builds(method, 0);

    public static bool IsCreateType(MethodReference m) => Builders.Contains(m.DeclaringType) && m.Name is "CreateType" or "CreateTypeInfo";

    /// <summary>Any TypeBuilder method: one given a constructor or type treats it as a type being emitted.</summary>
    public static bool IsTypeBuilder(MethodReference m) => Builders.Contains(m.DeclaringType);

    private bool Builds(MethodDefinitionHandle method, int depth)
    {
        if (_builds.TryGetValue(method, out bool known))
            return known;
        if (depth > MaxDepth || _bodies >= MaxBodies)
            return false;
        _builds[method] = false; // a cycle back here adds nothing
        bool result = false;
        try
        {
            if (image.Body(method) is { } body)
            {
                _bodies++;
                MetadataReader md = image.Metadata;
                foreach (IlInstruction ins in IlDecoder.Decode(body.GetILBytes() ?? []))
                {
                    if (ins.OpCode is not (ILOpCode.Call or ILOpCode.Callvirt or ILOpCode.Ldftn))
                        continue;
                    if (MethodReference.Resolve(md, MetadataTokens.EntityHandle(ins.Token)) is { } called && IsCreateType(called)
                        || LocalMethods.Resolve(md, ins.Token) is { } local && Builds(local, depth + 1))
                    {
                        result = true;
                        break;
                    }
                }
            }
        }
        catch (Exception e) when (MalformedMetadata.Is(e))
        {
            // An unreadable callee proves nothing: the type stays an ordinary unknown one.
        }
        _builds[method] = result;
        return result;
    }
}
