using System.Xml.Linq;
using DiagExt.Cli.Commands;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.WinDbg;

/// <summary>
/// Installed as an extension gallery package (the DiagExt folder copied to %LOCALAPPDATA%\Dbg\UserExtensions),
/// the engine loads DiagExt.dll by itself when a user types one of its commands, with no .load.
/// </summary>
[TestFixture]
[Category(TestKind.Windows)]
public class GalleryManifestTests
{
    private string _installed = null!;

    [OneTimeSetUp]
    public void Install()
    {
        WinePrefix.EnsureCreated();
        _installed = Path.Combine(WinePrefix.LocalAppData, "Dbg", "UserExtensions", "DiagExt");
        if (Directory.Exists(_installed))
            Directory.Delete(_installed, recursive: true);
        WinDbgPackage.CopyDirectory(WinDbgPackage.Folder, _installed);
    }

    // Other tests .load their own DiagExt.dll; a second one from the gallery would be ambiguous there.
    [OneTimeTearDown]
    public void Uninstall() => Directory.Delete(_installed, recursive: true);

    [Test]
    public void The_first_command_loads_the_extension_from_the_gallery()
    {
        string dump = Repo.SharedDump("win11-x64-crashpad-tiny-exe.dmp");

        EngineHost.Session session = EngineHost.OpenDump(dump, [".chain", "!dictcycle", ".chain"]);

        Assert.That(session.Raw, Does.Contain("Repository : UserExtensions, Enabled: true, Packages count: 1"));
        const string dll = "UserExtensions\\DiagExt\\x64\\DiagExt.dll";
        Assert.That(session.Commands[0].Lines.Select(l => l.Text), Has.None.Contains(dll), "loaded before it was needed");
        Assert.That(session["!dictcycle"].Errors, Is.EqualTo(new[] { $"diagext: {WinePrefix.WindowsPath(dump)}: no .NET runtime found in the target (no detector could run: dictcycle skipped)" }), session.Raw);
        Assert.That(session.Commands[2].Lines.Select(l => l.Text), Has.Some.Contains(dll));
    }

    [Test]
    public void The_manifest_lists_the_commands_the_dll_exports_with_their_catalog_summaries()
    {
        XDocument manifest = XDocument.Load(Path.Combine(WinDbgPackage.Folder, "GalleryManifest.xml"));
        var listed = manifest.Descendants().Where(e => e.Name.LocalName == "EngineCommand")
            .Select(e => (Name: e.Attribute("Name")!.Value, Description: e.Descendants().Single(d => d.Name.LocalName == "Description").Value)).ToList();

        Assert.That(listed.Select(c => c.Name), Is.EqualTo(CommandCatalog.All.Where(c => c.OwnExport).Select(c => c.Name).Prepend("diagext")));
        foreach (ICommand command in CommandCatalog.All.Where(c => c.OwnExport))
            Assert.That(listed.Single(c => c.Name == command.Name).Description, Is.EqualTo(command.Summary), command.Name);
        Assert.That(new PeImage(WinDbgPackage.Extension("x64")).ExportNames(), Is.SupersetOf(listed.Select(c => c.Name)));
    }
}
