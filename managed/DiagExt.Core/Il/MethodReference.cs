using System.Reflection.Metadata;

namespace DiagExt.Core.Il;

/// <summary>
/// What a call instruction's token names: declaring type, method name, and the shape of its signature
/// (parameter count, instance or static, void or not), which the stack simulation needs.
/// </summary>
public sealed record MethodReference(string DeclaringType, string Name, int ParameterCount, bool HasThis, bool ReturnsVoid, string ReturnType, MethodDefinitionHandle Definition)
{
    /// <summary>Decodes the token of a call/callvirt/newobj/ldftn operand; null for anything else.</summary>
    public static MethodReference? Resolve(MetadataReader reader, EntityHandle handle)
    {
        switch (handle.Kind)
        {
            case HandleKind.MethodDefinition:
            {
                var defHandle = (MethodDefinitionHandle)handle;
                MethodDefinition def = reader.GetMethodDefinition(defHandle);
                MethodSignature<string> sig = Signatures.Method(reader, def);
                return Create(MetadataNames.TypeName(reader, def.GetDeclaringType()), reader.GetString(def.Name), sig, defHandle);
            }
            case HandleKind.MemberReference:
            {
                MemberReference member = reader.GetMemberReference((MemberReferenceHandle)handle);
                if (member.GetKind() != MemberReferenceKind.Method)
                    return null;
                MethodSignature<string> sig = Signatures.Method(reader, member);
                string owner = member.Parent.Kind switch
                {
                    HandleKind.TypeReference or HandleKind.TypeDefinition or HandleKind.TypeSpecification => MetadataNames.TypeName(reader, (EntityHandle)member.Parent),
                    HandleKind.MethodDefinition => MetadataNames.TypeName(reader, reader.GetMethodDefinition((MethodDefinitionHandle)member.Parent).GetDeclaringType()),
                    _ => "?",
                };
                MethodDefinitionHandle def = member.Parent.Kind == HandleKind.MethodDefinition ? (MethodDefinitionHandle)member.Parent : default;
                return Create(owner, reader.GetString(member.Name), sig, def);
            }
            case HandleKind.MethodSpecification:
                return Resolve(reader, reader.GetMethodSpecification((MethodSpecificationHandle)handle).Method);
            default:
                return null;
        }
    }

    /// <summary>The shape of a calli's stand-alone signature.</summary>
    public static MethodReference? ResolveStandalone(MetadataReader reader, StandaloneSignatureHandle handle)
    {
        StandaloneSignature standalone = reader.GetStandaloneSignature(handle);
        if (standalone.GetKind() != StandaloneSignatureKind.Method)
            return null;
        return Create("?", "calli", Signatures.Method(reader, standalone), default);
    }

    /// <summary>The declaring type without generic arguments: "System.Collections.Generic.List&lt;T&gt;" becomes "System.Collections.Generic.List".</summary>
    public string OpenDeclaringType => DeclaringType.IndexOf('<') is int lt and > 0 ? DeclaringType[..lt] : DeclaringType;

    private static MethodReference Create(string owner, string name, MethodSignature<string> sig, MethodDefinitionHandle def) =>
        new(owner, name, sig.ParameterTypes.Length, sig.Header.IsInstance, sig.ReturnType == "void", sig.ReturnType, def);
}
