using DiagExt.Tests.Infrastructure;
using System.Collections.Immutable;
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
[Category(TestKind.Unit), Parallelizable(ParallelScope.Fixtures)]
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

    [Test]
    public void An_array_rank_beyond_the_runtimes_limit_is_refused_before_its_name_is_built()
    {
        // int32[,,,...] with rank 0x1FFFFFFF: the name "Int32[,,,...]" would be a 1 GB string.
        MetadataReader md = OneTypeSpec([0x14, 0x08, 0xDF, 0xFF, 0xFF, 0xFF, 0x00, 0x00], out TypeSpecificationHandle spec);

        long before = GC.GetAllocatedBytesForCurrentThread();
        Assert.Throws<BadImageFormatException>(() => Signatures.Type(md, spec));
        Assert.That(GC.GetAllocatedBytesForCurrentThread() - before, Is.LessThan(1 << 20));
        Assert.That(Signatures.Type(OneTypeSpec([0x14, 0x08, 0x20, 0x00, 0x00], out spec), spec), Is.EqualTo("Int32[" + new string(',', 31) + "]"), "rank 32, the runtime's limit");
    }

    /// <summary>Metadata holding one TypeSpec with <paramref name="signature"/>, as a compiler writes it.</summary>
    private static MetadataReader OneTypeSpec(byte[] signature, out TypeSpecificationHandle spec)
    {
        var builder = new MetadataBuilder();
        builder.AddModule(0, builder.GetOrAddString("m"), builder.GetOrAddGuid(Guid.NewGuid()), default, default);
        spec = builder.AddTypeSpecification(builder.GetOrAddBlob(signature));
        var image = new BlobBuilder();
        new MetadataRootBuilder(builder).Serialize(image, 0, 0);
        return MetadataReaderProvider.FromMetadataImage(image.ToImmutableArray()).GetMetadataReader();
    }
}
