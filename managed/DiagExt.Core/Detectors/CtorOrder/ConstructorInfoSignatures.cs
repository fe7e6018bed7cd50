using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;

namespace DiagExt.Core.Detectors.CtorOrder;

/// <summary>
/// A byte-level pre-check for signatures that can mention System.Reflection.ConstructorInfo (ConstructorInfo[],
/// IEnumerable&lt;ConstructorInfo&gt;...): the blob must hold ConstructorInfo's TypeDefOrRef coded index. Decoding
/// every signature of a large assembly costs more than the rest of the scan; this skips nearly all of them.
/// </summary>
internal sealed class ConstructorInfoSignatures
{
    private readonly MetadataReader _md;
    private readonly byte[][] _needles;
    private byte[] _buffer = new byte[256];

    public ConstructorInfoSignatures(MetadataReader md)
    {
        _md = md;
        var needles = new List<byte[]>();
        foreach (TypeReferenceHandle h in md.TypeReferences)
            if (IsConstructorInfo(md, md.GetTypeReference(h).Name, md.GetTypeReference(h).Namespace))
                needles.Add(Compressed(CodedIndex.TypeDefOrRefOrSpec(h)));
        foreach (TypeDefinitionHandle h in md.TypeDefinitions)
            if (IsConstructorInfo(md, md.GetTypeDefinition(h).Name, md.GetTypeDefinition(h).Namespace))
                needles.Add(Compressed(CodedIndex.TypeDefOrRefOrSpec(h)));
        _needles = [.. needles];
    }

    /// <summary>Whether the assembly names ConstructorInfo at all.</summary>
    public bool Any => _needles.Length > 0;

    /// <summary>Whether <paramref name="signature"/> may mention ConstructorInfo (false positives are decoded and dropped).</summary>
    public bool May(BlobHandle signature)
    {
        if (_needles.Length == 0 || signature.IsNil)
            return false;
        BlobReader blob = _md.GetBlobReader(signature);
        if (_buffer.Length < blob.Length)
            _buffer = new byte[blob.Length];
        blob.ReadBytes(blob.Length, _buffer, 0);
        ReadOnlySpan<byte> bytes = _buffer.AsSpan(0, blob.Length);
        foreach (byte[] needle in _needles)
            if (bytes.IndexOf(needle) >= 0)
                return true;
        return false;
    }

    private static bool IsConstructorInfo(MetadataReader md, StringHandle name, StringHandle ns) =>
        md.StringComparer.Equals(name, "ConstructorInfo") && md.StringComparer.Equals(ns, "System.Reflection");

    /// <summary>ECMA-335 II.23.2 compressed unsigned integer.</summary>
    private static byte[] Compressed(int value) => value switch
    {
        < 0x80 => [(byte)value],
        < 0x4000 => [(byte)(0x80 | (value >> 8)), (byte)value],
        _ => [(byte)(0xC0 | (value >> 24)), (byte)(value >> 16), (byte)(value >> 8), (byte)value],
    };
}
