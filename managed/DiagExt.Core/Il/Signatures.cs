using System.Collections.Immutable;
using System.Reflection.Metadata;

namespace DiagExt.Core.Il;

/// <summary>
/// Every signature DiagExt decodes goes through here: checked by <see cref="SignatureBlob"/> first, then decoded to
/// readable names. A TypeSpec that names itself (through a custom modifier) would recurse until the stack overflows,
/// which no catch can stop: the depth of nested TypeSpecs travels in the decoder's generic context and is bounded.
/// </summary>
internal static class Signatures
{
    public const int MaxSpecificationDepth = 32;

    public static MethodSignature<string> Method(MetadataReader md, MethodDefinition method)
    {
        SignatureBlob.CheckMethod(md.GetBlobReader(method.Signature));
        return method.DecodeSignature(SignatureTypeNames.Instance, null);
    }

    public static MethodSignature<string> Method(MetadataReader md, MemberReference member)
    {
        SignatureBlob.CheckMethod(md.GetBlobReader(member.Signature));
        return member.DecodeMethodSignature(SignatureTypeNames.Instance, null);
    }

    public static MethodSignature<string> Method(MetadataReader md, StandaloneSignature standalone)
    {
        SignatureBlob.CheckMethod(md.GetBlobReader(standalone.Signature));
        return standalone.DecodeMethodSignature(SignatureTypeNames.Instance, null);
    }

    public static ImmutableArray<string> Locals(MetadataReader md, StandaloneSignature standalone)
    {
        SignatureBlob.CheckLocals(md.GetBlobReader(standalone.Signature));
        return standalone.DecodeLocalSignature(SignatureTypeNames.Instance, null);
    }

    public static string Field(MetadataReader md, FieldDefinition field)
    {
        SignatureBlob.CheckField(md.GetBlobReader(field.Signature));
        return field.DecodeSignature(SignatureTypeNames.Instance, null);
    }

    /// <summary>A member reference's field type, or null when the reference names a method.</summary>
    public static string? Field(MetadataReader md, MemberReference member)
    {
        if (member.GetKind() != MemberReferenceKind.Field)
            return null;
        SignatureBlob.CheckField(md.GetBlobReader(member.Signature));
        return member.DecodeFieldSignature(SignatureTypeNames.Instance, null);
    }

    /// <param name="depth">How many TypeSpecs are being decoded around this one.</param>
    public static string Type(MetadataReader md, TypeSpecificationHandle handle, int depth = 0)
    {
        if (depth >= MaxSpecificationDepth)
            throw new BadImageFormatException($"type specifications nest deeper than {MaxSpecificationDepth} (one refers to itself)");
        TypeSpecification spec = md.GetTypeSpecification(handle);
        SignatureBlob.CheckType(md.GetBlobReader(spec.Signature));
        return spec.DecodeSignature(SignatureTypeNames.Instance, depth + 1);
    }
}
