using System.Reflection.Metadata;
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
    /// On Linux the runtime maps its ReadyToRun libraries section by section, 64 KB apart, and createdump keeps only the
    /// mapped pages: the image is read a section at a time into its loaded layout, and read in place. Every such module
    /// of the dump must give the method bodies of its file on disk (the sample ran on this machine's runtime).
    /// </summary>
    [Test]
    public void A_loaded_layout_image_in_the_dump_gives_the_method_bodies_of_its_file()
    {
        using Target target = TargetOpener.OpenDump(Dump());
        using var images = new LoadedModuleImages(target);
        int modules = 0, compared = 0;
        foreach (ClrModule module in target.Runtime!.EnumerateModules().Where(m => !m.IsDynamic && m.Layout != ModuleLayout.Flat && File.Exists(m.Name)))
        {
            using AssemblyImage? fromDump = images.FromTargetMemory(module);
            Assert.That(fromDump, Is.Not.Null, $"{module.Name}: not read from the dump");
            using AssemblyImage fromFile = AssemblyImage.Open(module.Name!);
            Assert.That(fromDump!.Mvid, Is.EqualTo(fromFile.Mvid));
            foreach (MethodDefinitionHandle method in fromFile.Metadata.MethodDefinitions)
            {
                if (fromFile.Body(method) is not { } expected)
                    continue;
                Assert.That(fromDump.Body(method)?.GetILBytes(), Is.EqualTo(expected.GetILBytes()), $"{module.Name}: method 0x{method.GetHashCode():x}");
                compared++;
            }
            modules++;
        }
        Assert.That(modules, Is.GreaterThanOrEqualTo(5), "CoreLib and the framework libraries the sample loads are mapped");
        Assert.That(compared, Is.GreaterThan(10_000));
    }

    private static string Describe(MetadataReader md) =>
        $"{AssemblyImage.NameOf(md)} {md.GetGuid(md.GetModuleDefinition().Mvid)} types {md.TypeDefinitions.Count} methods {md.MethodDefinitions.Count} refs {md.AssemblyReferences.Count}";
}
