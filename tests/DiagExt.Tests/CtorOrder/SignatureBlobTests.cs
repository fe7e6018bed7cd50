using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using System.Reflection.PortableExecutable;
using DiagExt.Core.Il;
using DiagExt.Fuzz;

namespace DiagExt.Tests.CtorOrder;

/// <summary>
/// The signature walk that guards System.Reflection.Metadata's decoder: it must read a blob as the decoder does
/// (or the decoder sizes an array from a byte the walk took for something else), and refuse no real signature.
/// </summary>
[TestFixture]
public class SignatureBlobTests
{
    [Test]
    public void A_generic_instantiation_of_a_primitive_is_refused_before_the_decoder_sizes_its_arguments()
    {
        // AFL's input: TypeSpec 9 is "15 03 C2 30 30 30 00..."; SRM read 03 as Char and C2303030 as 36,712,496 arguments.
        string file = Path.Combine(FuzzPaths.RegressionCorpus("il"), "afl-generic-instantiation-of-a-primitive.bin");
        using var pe = new PEReader(new MemoryStream(File.ReadAllBytes(file)));
        MetadataReader md = pe.GetMetadataReader();
        var spec = MetadataTokens.TypeSpecificationHandle(9);
        Assert.That(md.GetBlobBytes(md.GetTypeSpecification(spec).Signature).Take(3), Is.EqualTo(new byte[] { 0x15, 0x03, 0xC2 }));

        long before = GC.GetAllocatedBytesForCurrentThread();
        Assert.Throws<BadImageFormatException>(() => Signatures.Type(md, spec));
        Assert.That(GC.GetAllocatedBytesForCurrentThread() - before, Is.LessThan(1 << 20));
    }

    [Test]
    public void Every_type_specification_and_method_signature_of_real_assemblies_decodes()
    {
        foreach (string path in new[] { typeof(object).Assembly.Location, typeof(Signatures).Assembly.Location, typeof(System.Linq.Enumerable).Assembly.Location })
        {
            using var pe = new PEReader(File.OpenRead(path));
            MetadataReader md = pe.GetMetadataReader();
            int specs = md.GetTableRowCount(TableIndex.TypeSpec);
            Assert.That(specs, Is.GreaterThan(0), path);
            foreach (TypeSpecificationHandle spec in Enumerable.Range(1, specs).Select(MetadataTokens.TypeSpecificationHandle))
                Assert.DoesNotThrow(() => Signatures.Type(md, spec), $"{path}: 0x{MetadataTokens.GetToken(spec):x8}");
            foreach (MemberReferenceHandle member in md.MemberReferences.Where(m => md.GetMemberReference(m).GetKind() == MemberReferenceKind.Method))
                Assert.DoesNotThrow(() => Signatures.Method(md, md.GetMemberReference(member)), $"{path}: 0x{MetadataTokens.GetToken(member):x8}");
        }
    }
}
