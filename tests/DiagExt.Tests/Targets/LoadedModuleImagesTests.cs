using System.Reflection.Metadata;
using System.Reflection.PortableExecutable;
using DiagExt.Core.Il;
using DiagExt.Core.Targets;
using DiagExt.Tests.Infrastructure;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Tests.Targets;

/// <summary>
/// A target's modules, read from the CtorOrder sample's dump: the metadata alone (what type orders and references need)
/// must be the image's metadata without opening the image; and an image in the loaded layout, read in place through a
/// pointer, must give the method bodies of the file it was loaded from.
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class LoadedModuleImagesTests
{
    private static string Dump() => DumpMaker.DumpOfSample("CtorOrder", "ctororder.core", "--orders", Path.Combine(Repo.WorkDirectory, "ctororder-orders.txt"));

    [Test]
    public void Metadata_alone_is_the_images_metadata_and_opens_no_image()
    {
        using Target target = TargetOpener.OpenDump(Dump());
        ClrModule[] modules = target.Runtime!.EnumerateModules().Where(m => !m.IsDynamic).ToArray();
        Assert.That(modules, Has.Length.GreaterThan(3));

        using var metadataOnly = new LoadedModuleImages(target);
        using var images = new LoadedModuleImages(target);
        foreach (ClrModule module in modules)
        {
            MetadataReader? alone = metadataOnly.MetadataFor(module);
            MetadataReader? ofImage = images.For(module)?.Metadata;
            Assert.That(alone, Is.Not.Null, module.Name);
            Assert.That(ofImage, Is.Not.Null, module.Name);
            Assert.That(Describe(alone!), Is.EqualTo(Describe(ofImage!)), module.Name);
        }
        Assert.That(metadataOnly.ImagesOpened, Is.Zero, "a dump holds every module's metadata: no image is needed for it");
        Assert.That(images.ImagesOpened, Is.EqualTo(modules.Length));
    }

    /// <summary>
    /// The in-place read of a loaded layout. Linux dumps do not serve one (the runtime maps its R2R libraries with holes
    /// createdump leaves out: their images come from disk, MVID-checked), so the image is laid out here as the loader
    /// maps it, each section at its RVA, from real files: this test assembly (IL only, its sections' file offsets
    /// differ from their RVAs) and CoreLib.
    /// </summary>
    [TestCase("tests")]
    [TestCase("corelib")]
    public void A_loaded_layout_image_gives_the_method_bodies_of_its_file(string which)
    {
        string path = which == "tests" ? typeof(LoadedModuleImagesTests).Assembly.Location : typeof(object).Assembly.Location;
        using AssemblyImage fromFile = AssemblyImage.Open(path);
        using AssemblyImage loaded = AssemblyImage.FromMemory(LaidOutAsLoaded(path), $"{path} as loaded", loadedLayout: true, pathOnDisk: null);

        Assert.That(loaded.Mvid, Is.EqualTo(fromFile.Mvid));
        int compared = 0;
        foreach (MethodDefinitionHandle method in fromFile.Metadata.MethodDefinitions)
        {
            if (fromFile.Body(method) is not { } expected)
                continue;
            Assert.That(loaded.Body(method)?.GetILBytes(), Is.EqualTo(expected.GetILBytes()), $"method 0x{method.GetHashCode():x}");
            compared++;
        }
        Assert.That(compared, Is.GreaterThan(100));
    }

    private static byte[] LaidOutAsLoaded(string path)
    {
        byte[] file = File.ReadAllBytes(path);
        using var pe = new PEReader(new MemoryStream(file));
        var image = new byte[pe.PEHeaders.PEHeader!.SizeOfImage];
        file.AsSpan(0, pe.PEHeaders.PEHeader.SizeOfHeaders).CopyTo(image);
        foreach (SectionHeader section in pe.PEHeaders.SectionHeaders)
        {
            int length = Math.Min(section.SizeOfRawData, section.VirtualSize);
            file.AsSpan(section.PointerToRawData, length).CopyTo(image.AsSpan(section.VirtualAddress));
        }
        Assert.That(pe.PEHeaders.SectionHeaders.Any(s => s.PointerToRawData != s.VirtualAddress), "a layout that differs from the file's");
        return image;
    }

    private static string Describe(MetadataReader md) =>
        $"{AssemblyImage.NameOf(md)} {md.GetGuid(md.GetModuleDefinition().Mvid)} types {md.TypeDefinitions.Count} methods {md.MethodDefinitions.Count} refs {md.AssemblyReferences.Count}";
}
