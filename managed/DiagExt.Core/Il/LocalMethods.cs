using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;

namespace DiagExt.Core.Il;

/// <summary>
/// Finds the method definition behind a method token when it is in the same assembly: a MethodDef, a
/// generic method instantiation of one, or a MemberRef on a generic instantiation of a local type (how
/// lambdas in generic classes are referenced: "ldftn &lt;&gt;c__DisplayClass1_0`1&lt;!T&gt;::&lt;M&gt;b__0").
/// </summary>
public static class LocalMethods
{
    public static MethodDefinitionHandle? Resolve(MetadataReader md, int token)
    {
        try
        {
            return Resolve(md, MetadataTokens.EntityHandle(token), depth: 0);
        }
        catch (Exception e) when (MalformedMetadata.Is(e))
        {
            return null;
        }
    }

    private static MethodDefinitionHandle? Resolve(MetadataReader md, EntityHandle handle, int depth)
    {
        if (depth > 4)
            return null;
        switch (handle.Kind)
        {
            case HandleKind.MethodDefinition:
                return (MethodDefinitionHandle)handle;
            case HandleKind.MethodSpecification:
                return Resolve(md, md.GetMethodSpecification((MethodSpecificationHandle)handle).Method, depth + 1);
            case HandleKind.MemberReference:
                MemberReference member = md.GetMemberReference((MemberReferenceHandle)handle);
                TypeDefinitionHandle? owner = member.Parent.Kind switch
                {
                    HandleKind.TypeDefinition => (TypeDefinitionHandle)member.Parent,
                    HandleKind.TypeSpecification => GenericDefinition(md, (TypeSpecificationHandle)member.Parent),
                    _ => null,
                };
                if (owner is not { } type)
                    return null;
                string name = md.GetString(member.Name);
                int parameters = Signatures.Method(md, member).ParameterTypes.Length;
                foreach (MethodDefinitionHandle candidate in md.GetTypeDefinition(type).GetMethods())
                {
                    MethodDefinition def = md.GetMethodDefinition(candidate);
                    if (md.GetString(def.Name) == name && Signatures.Method(md, def).ParameterTypes.Length == parameters)
                        return candidate;
                }
                return null;
            default:
                return null;
        }
    }

    /// <summary>The local type definition a generic instantiation ("Foo`1&lt;!0&gt;") is made from.</summary>
    private static TypeDefinitionHandle? GenericDefinition(MetadataReader md, TypeSpecificationHandle spec)
    {
        BlobReader blob = md.GetBlobReader(md.GetTypeSpecification(spec).Signature);
        if (blob.ReadSignatureTypeCode() != SignatureTypeCode.GenericTypeInstance)
            return null;
        blob.ReadSignatureTypeCode(); // class or valuetype
        EntityHandle generic = blob.ReadTypeHandle();
        return generic.Kind == HandleKind.TypeDefinition ? (TypeDefinitionHandle)generic : null;
    }
}
